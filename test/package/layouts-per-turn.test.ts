import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

// Objects the loop copies from the caller's input once per turn, checked with V8's own test
// functions: on Node 20 a field added after a spread of the caller's fresh object (`{ ...input,
// ingress }`) made a new object layout every turn, which every inline cache reading it then
// missed (bench/RESULTS.md, "Session 18"). Run from the sources, under the machine's Node.
const probe = `
  const { createAgent, defineTool, openAIChatProvider } = await import('./src/index.ts');
  const { scriptedModel } = await import('./src/testing/index.ts');
  const { turnInputWith } = await import('./src/core/turn-input.ts');
  const { z } = await import('zod');
  const seen = [];
  const probe = defineTool({ name: 'probe', description: 'p', parameters: z.object({}), execute: (_args, ctx) => (seen.push(ctx.ingress), 'ok') });
  for (let k = 0; k < 30; k++) {
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'done' }]), model: 'm', tools: [probe] });
    await agent.complete({ message: 'turn ' + k, ingress: { channel: 'web', replyTarget: 'thread-' + k } });
  }
  // the body of each request the real OpenAI client sends to the fixture server, streaming and
  // not, recorded as the provider hands it over (the object's layout does not cross the wire)
  const { default: OpenAI } = await import('openai');
  const { startOpenAIServer } = await import('./test/fixtures/openai-server.ts');
  const server = await startOpenAIServer(() => ({ kind: 'reply', text: 'hi' }));
  const bodies = { stream: [], once: [] };
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0, logLevel: 'off' });
  const create = client.chat.completions.create.bind(client.chat.completions);
  client.chat.completions.create = (body, options) => ((body.stream ? bodies.stream : bodies.once).push(body), create(body, options));
  for (const stream of [true, false]) {
    const provider = openAIChatProvider(client, { stream, params: { max_tokens: 64 } });
    for (let k = 0; k < 30; k++) await createAgent({ provider, model: 'm', tools: [], temperature: 0.5 }).complete({ message: 'turn ' + k });
  }
  const served = server.requests.map((r) => r.body.stream);
  await server.close();
  const copies = [];
  for (let k = 0; k < 30; k++) copies.push(turnInputWith({ message: 'turn ' + k }, { ingress: { channel: 'web' } }));
  // past the first few copies: V8's copy takes its fast path (and made new layouts) from about the tenth on
  const same = (list) => list.slice(-20).every((o) => %HaveSameMap(o, list.at(-1)));
  console.log(JSON.stringify({
    ingress: same(seen), ingresses: seen.length, input: same(copies), fields: copies[0],
    bodies: [same(bodies.stream), same(bodies.once)], body: [bodies.stream[0], bodies.once[0]], served,
  }));
`;

describe("what a turn copies from the caller's input keeps one object layout from turn to turn", () => {
  it("the turn's ingress (with its id and alias added), the input copy telemetry makes (turnInputWith), each OpenAI request's body", async () => {
    const { stdout } = await run(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', probe], { cwd: root });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      ingress: boolean;
      ingresses: number;
      input: boolean;
      fields: Record<string, unknown>;
      bodies: boolean[];
      body: Record<string, unknown>[];
      served: boolean[];
    };
    expect(out.ingresses).toBe(30);
    expect(out.ingress).toBe(true);
    expect(out.input).toBe(true);
    expect(out.fields).toEqual({ message: 'turn 0', ingress: { channel: 'web' } });
    expect(out.served).toEqual([...Array(30).fill(true), ...Array(30).fill(false)]);
    expect(out.bodies).toEqual([true, true]);
    // the params first, then the request's fields, then stream and its options, as the spreads had them
    expect(out.body.map((b) => Object.keys(b))).toEqual([
      ['max_tokens', 'model', 'messages', 'temperature', 'stream', 'stream_options'],
      ['max_tokens', 'model', 'messages', 'temperature', 'stream'],
    ]);
  }, 60_000);
});

describe('turnInputWith is a spread of the input and the changes', () => {
  it('keeps every field of the input, and a key present in the changes wins, undefined included', async () => {
    const { turnInputWith } = await import('../../src/core/turn-input.js');
    const signal = new AbortController().signal;
    const input = { message: 'm', history: [], signal, steering: [], memory: ['x'], ingress: { channel: 'c' }, conversationId: 'c1', tools: ['t'], journal: undefined };
    expect(turnInputWith(input, {})).toEqual(input);
    const changed = turnInputWith(input, { conversationId: 'c2', signal: undefined });
    expect(changed).toEqual({ ...input, conversationId: 'c2', signal: undefined });
    expect(changed.signal).toBeUndefined();
    expect(input.signal).toBe(signal); // the input is not changed
  });
});
