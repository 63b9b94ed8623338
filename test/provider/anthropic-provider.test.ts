import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { anthropicProvider, type ProviderEvent, type ToolSpec } from '../../src/index.js';
import { eventOffset, replySse, startAnthropicServer, type AnthropicServer, type AnthropicStep } from '../fixtures/anthropic-server.js';
import { anthropicFor } from './anthropic-helpers.js';
import { eventsOf, userRequest } from './helpers.js';

let server: AnthropicServer | undefined;
const serve = async (script: readonly AnthropicStep[] | ((body: any, n: number) => AnthropicStep)) => (server = await startAnthropicServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather: ToolSpec = Object.freeze({
  name: 'weather',
  description: 'Current weather for a city',
  parameters: Object.freeze({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
});

const text = (value: string | readonly string[]) => ({ type: 'text', text: value }) as const;
const reply = (...content: Extract<AnthropicStep, { kind: 'reply' }>['content']): Extract<AnthropicStep, { kind: 'reply' }> => ({ kind: 'reply', content });

/** Two calls, their JSON in fragments, after a signed thinking block and some text. */
const twoCalls = reply(
  { type: 'thinking', thinking: ['The user wants ', 'two cities.'], signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' },
  text(['Checking ', 'both.']),
  { type: 'tool_use', id: 'toolu_01', name: 'weather', input: ['', '{"ci', 'ty": "Os', 'lo"}'] },
  { type: 'tool_use', id: 'toolu_02', name: 'weather', input: ['{"city"', ': "Bergen"}'] },
);

const twoCallsEvents: ProviderEvent[] = [
  { type: 'reasoning', part: { provider: 'anthropic', data: { type: 'thinking', thinking: 'The user wants two cities.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' } } },
  { type: 'text-delta', text: 'Checking ' },
  { type: 'text-delta', text: 'both.' },
  { type: 'tool-call-delta', index: 0, id: 'toolu_01', name: 'weather', argumentsDelta: '' },
  { type: 'tool-call-delta', index: 0, id: 'toolu_01', name: 'weather', argumentsDelta: '{"ci' },
  { type: 'tool-call-delta', index: 0, id: 'toolu_01', name: 'weather', argumentsDelta: 'ty": "Os' },
  { type: 'tool-call-delta', index: 0, id: 'toolu_01', name: 'weather', argumentsDelta: 'lo"}' },
  { type: 'tool-call-delta', index: 1, id: 'toolu_02', name: 'weather', argumentsDelta: '{"city"' },
  { type: 'tool-call-delta', index: 1, id: 'toolu_02', name: 'weather', argumentsDelta: ': "Bergen"}' },
  { type: 'tool-call', id: 'toolu_01', name: 'weather', arguments: '{"city": "Oslo"}' },
  { type: 'tool-call', id: 'toolu_02', name: 'weather', arguments: '{"city": "Bergen"}' },
  { type: 'usage', inputTokens: 10, outputTokens: 5 },
  { type: 'finish', reason: 'tool_use', responseId: 'msg_fixture', responseModel: 'fixture-model' },
];

describe('Provider request: a streamed Messages API request', () => {
  it('sends the model, max_tokens, the system text apart, the tools with input_schema, and stream', async () => {
    const s = await serve([reply(text('ok'))]);
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: 'hi' },
    ] as const;
    await eventsOf(anthropicProvider(anthropicFor(s)), userRequest({ messages, tools: [weather], temperature: 0.2 }));
    expect(s.requests[0].url).toBe('/v1/messages');
    expect(s.requests[0].body).toEqual({
      model: 'fixture-model',
      max_tokens: 4096,
      system: 'Be brief.\n\nAnswer in English.',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'weather', description: 'Current weather for a city', input_schema: weather.parameters }],
      temperature: 0.2,
      stream: true,
    });
  });

  it('has no system or tools key without them, and merges params (thinking) and maxTokens', async () => {
    const s = await serve([reply(text('ok')), reply(text('ok'))]);
    const thinking = { type: 'enabled', budget_tokens: 2048 };
    await eventsOf(anthropicProvider(anthropicFor(s), { params: { thinking }, maxTokens: 8000 }));
    await eventsOf(anthropicProvider(anthropicFor(s), { params: { max_tokens: 300 } }));
    expect(s.requests[0].body).toEqual({ thinking, model: 'fixture-model', max_tokens: 8000, messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(s.requests[1].body.max_tokens).toBe(300);
  });

  it('is named anthropic in errors, logs and spans, at the client base URL', async () => {
    const s = await serve([]);
    const provider = anthropicProvider(anthropicFor(s));
    expect({ name: provider.name, telemetryName: provider.telemetryName, nativeTools: provider.nativeTools }).toEqual({
      name: 'anthropic',
      telemetryName: 'anthropic',
      nativeTools: true,
    });
    expect(provider.server).toEqual({ address: '127.0.0.1', port: Number(new URL(s.baseURL).port) });
    expect(anthropicProvider(anthropicFor(s), { name: 'claude', telemetryName: 'aws.bedrock' })).toMatchObject({ name: 'claude', telemetryName: 'aws.bedrock' });
  });
});

describe('Streaming: text deltas as they arrive, tool_use blocks assembled, thinking kept with its signature', () => {
  it('emits a text delta before the stream has ended', async () => {
    const step = reply(text(['first ', 'second']));
    const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), 'second') }]);
    const controller = new AbortController();
    const first = await firstValueFrom(anthropicProvider(anthropicFor(s)).request(userRequest(), controller.signal));
    expect(first).toEqual({ type: 'text-delta', text: 'first ' });
    expect(s.requests[0].closedByClient).toBe(false);
    controller.abort();
    await s.clientClosed(0);
  });

  it('several calls in one response: every tool-call-delta, then the complete calls, usage and finish', async () => {
    const s = await serve([twoCalls]);
    expect(await eventsOf(anthropicProvider(anthropicFor(s)))).toEqual(twoCallsEvents);
  });

  it('the same stream written one byte at a time gives the same events', async () => {
    const s = await serve([{ ...twoCalls, split: 'bytes' }]);
    expect(await eventsOf(anthropicProvider(anthropicFor(s)))).toEqual(twoCallsEvents);
  });

  it('the same stream cut in two at every byte boundary gives the same events', async () => {
    // TCP keeps no write boundaries, so the client's real `fetch` reads the fixture's response
    // and only re-cuts its body into two chunks before the SDK's SSE decoder reads it.
    const s = await serve(() => twoCalls);
    let boundary = 0;
    const cut: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, boundary));
          controller.enqueue(bytes.slice(boundary));
          controller.close();
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const provider = anthropicProvider(anthropicFor(s, 0, { fetch: cut }));
    const length = Buffer.byteLength(replySse(twoCalls));
    const mismatches: number[] = [];
    for (boundary = 1; boundary < length; boundary++) {
      if (JSON.stringify(await eventsOf(provider)) !== JSON.stringify(twoCallsEvents)) mismatches.push(boundary);
    }
    expect(length).toBeGreaterThan(2000);
    expect(s.requests).toHaveLength(length - 1);
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('a redacted_thinking block is kept as it came, in order with the thinking blocks', async () => {
    const s = await serve([
      reply(
        { type: 'thinking', thinking: 'one', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
        { type: 'thinking', thinking: ['tw', 'o'], signature: 'sig-2' },
        text('done'),
      ),
    ]);
    const events = await eventsOf(anthropicProvider(anthropicFor(s)));
    expect(events.flatMap((e) => (e.type === 'reasoning' ? [e.part] : []))).toEqual([
      { provider: 'anthropic', data: { type: 'thinking', thinking: 'one', signature: 'sig-1' } },
      { provider: 'anthropic', data: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' } },
      { provider: 'anthropic', data: { type: 'thinking', thinking: 'two', signature: 'sig-2' } },
    ]);
  });

  it('a tool_use with no streamed input is a call with {} as arguments', async () => {
    const s = await serve([reply({ type: 'tool_use', id: 'toolu_9', name: 'now', input: [] })]);
    const events = await eventsOf(anthropicProvider(anthropicFor(s)));
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([{ type: 'tool-call', id: 'toolu_9', name: 'now', arguments: '{}' }]);
  });

  it('usage counts cache writes and reads as input, and takes message_delta’s cumulative counts', async () => {
    const usage = { input_tokens: 12, output_tokens: 40, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000 };
    const s = await serve([
      { ...reply(text('a')), usage },
      { ...reply(text('b')), usage: { ...usage, final: { input_tokens: 30, output_tokens: 41 } } },
    ]);
    const usageOf = async () => (await eventsOf(anthropicProvider(anthropicFor(s)))).find((e) => e.type === 'usage');
    expect(await usageOf()).toEqual({ type: 'usage', inputTokens: 2112, outputTokens: 40 });
    expect(await usageOf()).toEqual({ type: 'usage', inputTokens: 2130, outputTokens: 41 });
  });

  it('reports stop_reason as it came (max_tokens, end_turn)', async () => {
    const s = await serve([{ ...reply(text('cut')), stopReason: 'max_tokens' }, reply(text('whole'))]);
    expect((await eventsOf(anthropicProvider(anthropicFor(s)))).at(-1)).toEqual({
      type: 'finish',
      reason: 'max_tokens',
      responseId: 'msg_fixture',
      responseModel: 'fixture-model',
    });
    expect((await eventsOf(anthropicProvider(anthropicFor(s)))).at(-1)).toMatchObject({ reason: 'end_turn' });
  });
});
