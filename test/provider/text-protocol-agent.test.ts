import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  openAIChatProvider,
  textProtocolProvider,
  type ChatMessage,
  type ModelProvider,
  type TurnEvent,
} from '../../src/index.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';
import { malformedApologyText, malformedRetryText } from '../../src/loop/iterate.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { clientFor } from './helpers.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

const textModel = (steps: ScriptedResponse[]) => scriptedModel(steps, { nativeTools: false });
const run = (provider: ModelProvider, extra: Record<string, unknown> = {}) =>
  lastValueFrom(createAgent({ provider, model: 'm', tools: [add], ...extra }).run({ message: 'What is 1+2?' }).pipe(toArray()));
const doneOf = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'done' }>;
const systemTexts = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role === 'system').map((m) => m.content as string);

describe('Text-protocol providers get a protocol section instead of tool specs', () => {
  it('the request has a system message explaining <tool_call> and <tool_result>, listing each tool with its schema, and no tools', async () => {
    const inner = textModel([{ text: 'no tools needed' }]);
    const provider = textProtocolProvider(inner);
    expect(provider.nativeTools).toBe(false);
    await run(provider);
    const req = inner.requests[0];
    expect(req.tools).toBeUndefined();
    const [section] = systemTexts(req.messages);
    expect(section).toContain('<tool_call>{"name": "tool_name", "arguments": {"param": "value"}}</tool_call>');
    expect(section).toContain('several <tool_call> blocks');
    expect(section).toContain('<tool_result name="tool_name">');
    expect(section).toContain(`- add: Adds two numbers\n  Parameters: ${JSON.stringify(add.spec.parameters)}`);
  });

  it('renders a shared spec once and reuses it on the next request', () => {
    const protocol = textProtocolProvider(textModel([])).textProtocol!;
    const first = protocol.instructions([add.spec]);
    expect(protocol.instructions([add.spec])).toBe(first);
  });

  it("gives a frozen list of specs (an agent's turns share one) the same section each time, and follows a list that can change", async () => {
    const protocol = textProtocolProvider(textModel([])).textProtocol!;
    const other = defineTool({ name: 'other', description: 'Another', parameters: z.object({}), execute: () => 'x' });
    const frozen = Object.freeze([add.spec, other.spec]);
    expect(protocol.instructions(frozen)).toBe(protocol.instructions(frozen));
    expect(protocol.instructions(frozen)).toBe(protocol.instructions([add.spec, other.spec]));
    const growing = [add.spec];
    const before = protocol.instructions(growing);
    growing.push(other.spec);
    expect(protocol.instructions(growing)).not.toBe(before);
    expect(protocol.instructions(growing)).toContain('- other: Another');
    // two turns of one agent: the same section, from the agent's shared (frozen) specs
    const inner = textModel([{ text: 'one' }, { text: 'two' }]);
    const agent = createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [add, other] });
    await agent.complete({ message: 'a' });
    await agent.complete({ message: 'b' });
    expect(systemTexts(inner.requests[1].messages)[0]).toBe(systemTexts(inner.requests[0].messages)[0]);
  });
});

describe('Text calls run, and history is written in text mode', () => {
  it('the assistant text as written, then one [Tool results] user message with <tool_result> blocks in slot order', async () => {
    let releaseSlow = (): void => undefined;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const slow = defineTool({ name: 'slow', description: 'slow', parameters: z.object({}), execute: async () => (await slowGate, 'slow result') });
    const fast = defineTool({ name: 'fast', description: 'fast', parameters: z.object({}), execute: () => (releaseSlow(), 'fast result') });
    const text = 'Both at once.\n<tool_call>{"name": "slow", "arguments": {}}</tool_call>\n<tool_call>{"name": "fast", "arguments": {}}</tool_call>';
    const inner = textModel([{ text }, { text: 'All done.' }]);
    const events = await lastValueFrom(
      createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [slow, fast], knobs: { parallelTools: true } }).run({ message: 'go' }).pipe(toArray()),
    );
    expect(events.filter((e) => e.type === 'tool-result').map((e) => (e as { name: string }).name)).toEqual(['fast', 'slow']);
    expect(doneOf(events).history.slice(1)).toEqual([
      { role: 'assistant', content: text },
      {
        role: 'user',
        content: '[Tool results]\n<tool_result name="slow">\nslow result\n</tool_result>\n<tool_result name="fast">\nfast result\n</tool_result>',
      },
      { role: 'assistant', content: 'All done.' },
    ]);
    expect(inner.requests[1].messages.some((m) => m.role === 'tool')).toBe(false);
  });

  it('tool-call events carry generated ids, used by both events of the slot', async () => {
    const events = await run(textProtocolProvider(textModel([{ text: '<tool_call>{"name":"add","arguments":{"a":1,"b":2}}</tool_call>' }, { text: '3' }])));
    const call = events.find((e) => e.type === 'tool-call') as Extract<TurnEvent, { type: 'tool-call' }>;
    const result = events.find((e) => e.type === 'tool-result') as Extract<TurnEvent, { type: 'tool-result' }>;
    expect(call.id.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ id: call.id, output: '3', outcome: 'executed' });
  });

  it('native tool history from an earlier turn reaches the inner model as text', async () => {
    const inner = textModel([{ text: 'It was 3.' }]);
    const history: ChatMessage[] = [
      { role: 'user', content: 'add 1 and 2' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '3' },
      { role: 'assistant', content: '3' },
    ];
    await lastValueFrom(createAgent({ provider: textProtocolProvider(inner), model: 'm', tools: [add] }).run({ message: 'and again?', history }));
    expect(inner.requests[0].messages.slice(1, 4)).toEqual([
      { role: 'user', content: 'add 1 and 2' },
      { role: 'assistant', content: '<tool_call>{"name":"add","arguments":{"a":1,"b":2}}</tool_call>' },
      { role: 'user', content: '[Tool results]\n<tool_result name="add">\n3\n</tool_result>' },
    ]);
  });
});

describe('Strict parsing hides the protocol section and parses no text calls', () => {
  const callText = '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>';

  it('textProtocolProvider(inner, { strict: true })', async () => {
    const inner = textModel([{ text: callText }]);
    const events = await run(textProtocolProvider(inner, { strict: true }));
    expect(systemTexts(inner.requests[0].messages)).toEqual([]);
    expect(events.some((e) => e.type === 'tool-call')).toBe(false);
    expect(doneOf(events)).toMatchObject({ text: callText, reason: 'final', iterations: 1 });
  });

  it('the strictToolParsing knob does the same on a non-strict provider', async () => {
    const inner = textModel([{ text: callText }]);
    const events = await run(textProtocolProvider(inner), { knobs: { strictToolParsing: true } });
    expect(systemTexts(inner.requests[0].messages)).toEqual([]);
    expect(events.some((e) => e.type === 'tool-call')).toBe(false);
  });
});

describe('A malformed protocol response is retried twice, then the turn ends with an apology', () => {
  const broken = { text: '<tool_call>{"name": "add", "arguments": {"a": 1</tool_call>' };

  it('two retries, each adding the how-to-format user message, then the apology text', async () => {
    const inner = textModel([broken, broken, broken, { text: 'never asked' }]);
    const events = await run(textProtocolProvider(inner));
    expect(inner.requests).toHaveLength(3);
    expect(inner.requests[1].messages.at(-1)).toEqual({ role: 'user', content: malformedRetryText });
    expect(inner.requests[2].messages.filter((m) => m.role === 'user' && m.content === malformedRetryText)).toHaveLength(2);
    expect(doneOf(events)).toMatchObject({ text: malformedApologyText, reason: 'final' });
    expect(events.some((e) => e.type === 'tool-call')).toBe(false);
  });

  it('a retry that comes back well-formed runs the call', async () => {
    const inner = textModel([broken, { text: '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>' }, { text: 'It is 3.' }]);
    const events = await run(textProtocolProvider(inner));
    expect(events.filter((e) => e.type === 'tool-result').map((e) => (e as { output: string }).output)).toEqual(['3']);
    expect(doneOf(events).text).toBe('It is 3.');
  });
});

describe('Text protocol over a real OpenAI-compatible server', () => {
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends no tools, parses the streamed text call, and sends the results back as a [Tool results] message', async () => {
    const s = (server = await startOpenAIServer([
      { kind: 'reply', text: ['<tool_', 'call>{"name": "add", "argu', 'ments": {"a": 1, "b": 2}}</tool_call>'] },
      { kind: 'reply', text: 'The sum is 3.' },
    ]));
    const provider = textProtocolProvider(openAIChatProvider(clientFor(s)));
    const events = await run(provider);
    expect(s.requests[0].body.tools).toBeUndefined();
    expect(s.requests[0].body.messages[0].content).toContain('<tool_call>');
    expect(s.requests[1].body.messages.at(-1)).toEqual({ role: 'user', content: '[Tool results]\n<tool_result name="add">\n3\n</tool_result>' });
    expect(doneOf(events)).toMatchObject({ text: 'The sum is 3.', reason: 'final', iterations: 2 });
  });
});
