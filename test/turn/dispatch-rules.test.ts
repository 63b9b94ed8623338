import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ChatMessage, type Tool } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { collect, doneOf, ofType } from './helpers.js';

const echo = defineTool({
  name: 'echo',
  description: 'echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const oneBatch = (tools: Tool[], calls: { id?: string; name: string; arguments: unknown }[], knobs = {}, extra = {}) =>
  createAgent({ provider: scriptedModel([{ toolCalls: calls }, { text: 'fine' }]), model: 'm', tools, knobs, ...extra });

const toolMessages = (history: ChatMessage[]) =>
  history.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');

describe('Lookup: excluded, unknown and invalid arguments never execute', () => {
  it('an excluded name (trimmed, case-insensitive) ends excluded with its text', async () => {
    const secret = fakeTool('shell', 'ran');
    const agent = oneBatch([secret], [{ id: 'a', name: ' SHELL ', arguments: {} }, { id: 'b', name: 'shell', arguments: {} }], {}, {
      excludedTools: ['shell'],
    });
    const events = await collect(agent, { message: 'x' });
    expect(ofType(events, 'tool-result').map((e) => [e.outcome, e.success, e.output])).toEqual([
      ['excluded', false, 'Tool not available in this turn:  SHELL '],
      ['excluded', false, 'Tool not available in this turn: shell'],
    ]);
    expect(secret.calls).toHaveLength(0);
  });

  it('an excluded tool is not in the provider specs', async () => {
    const model = scriptedModel([{ text: 'no tools needed' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [echo, fakeTool('shell', '')], excludedTools: ['shell'] });
    await agent.complete({ message: 'x' });
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['echo']);
  });

  it('a name that is neither registered nor activated ends unknown', async () => {
    const events = await collect(oneBatch([echo], [{ id: 'a', name: 'nope', arguments: {} }]), { message: 'x' });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ outcome: 'unknown', success: false, output: 'Unknown tool: nope' });
  });

  it('arguments failing the schema end invalid-arguments with the validation message for the model', async () => {
    const done = doneOf(await collect(oneBatch([echo], [{ id: 'a', name: 'echo', arguments: { text: 5 } }]), { message: 'x' }));
    const [result] = toolMessages(done.history);
    expect(result.content).toMatch(/^Error: invalid arguments for echo: .*expected string/s);
    expect(result.content).toContain('text');
  });

  it('native arguments that are not valid JSON become {} and the slot fails invalid-arguments with the parse problem', async () => {
    const events = await collect(oneBatch([echo], [{ id: 'a', name: 'echo', arguments: '{"text": "unterminated' }]), { message: 'x' });
    const result = ofType(events, 'tool-result')[0];
    expect(result.outcome).toBe('invalid-arguments');
    expect(result.output).toMatch(/not valid JSON/);
    expect(ofType(events, 'tool-call')[0].args).toEqual({});
    const assistant = doneOf(events).history[1] as Extract<ChatMessage, { role: 'assistant' }>;
    expect(assistant.tool_calls?.[0].function.arguments).toBe('{"text": "unterminated');
  });
});

describe('Results: the model-visible texts of each ending', () => {
  const cases: [string, Tool['execute'], string, string][] = [
    ['success with empty output', () => '', 'executed', '(no output)'],
    ['a ToolResult with success false', () => ({ success: false, output: 'partial', error: 'disk full' }), 'failed', 'Error: disk full'],
    ['a failed ToolResult without error text', () => ({ success: false, output: 'bad path' }), 'failed', 'Error: bad path'],
    [
      'a synchronous throw',
      () => {
        throw new Error('boom');
      },
      'failed',
      'Error executing t: boom',
    ],
    ['a rejection', () => Promise.reject(new Error('nope')), 'failed', 'Error executing t: nope'],
    ['a non-string value', () => ({ rows: 3 }) as never, 'executed', '{"rows":3}'],
    ['undefined', () => undefined as never, 'executed', '(no output)'],
  ];
  for (const [name, execute, outcome, text] of cases) {
    it(`${name} → ${outcome}: ${text}`, async () => {
      const tool = defineTool({ name: 't', description: '', parameters: z.object({}), execute });
      const events = await collect(oneBatch([tool], [{ id: 'a', name: 't', arguments: {} }]), { message: 'x' });
      expect(ofType(events, 'tool-result')[0]).toMatchObject({ outcome, success: outcome === 'executed' });
      expect(toolMessages(doneOf(events).history)[0].content).toBe(text);
    });
  }

  it('a bare string returned by an Observable is one value, never iterated by character', async () => {
    const { of } = await import('rxjs');
    const tool = defineTool({ name: 't', description: '', parameters: z.object({}), execute: () => of('whole') });
    const done = doneOf(await collect(oneBatch([tool], [{ name: 't', arguments: {} }]), { message: 'x' }));
    expect(toolMessages(done.history)[0].content).toBe('whole');
  });

  it('long output is truncated in history with the marker', async () => {
    const tool = defineTool({ name: 't', description: '', parameters: z.object({}), execute: () => 'a'.repeat(200) + 'z'.repeat(100) });
    const done = doneOf(await collect(oneBatch([tool], [{ name: 't', arguments: {} }], { maxToolResultChars: 90 }), { message: 'x' }));
    expect(toolMessages(done.history)[0].content).toBe(`${'a'.repeat(60)}\n\n[... 210 characters truncated ...]\n\n${'z'.repeat(30)}`);
  });
});

describe('Parsing: provider ids are kept; calls without one get a generated id used by both events', () => {
  it('uses the injected id generator for missing ids', async () => {
    let n = 0;
    const agent = oneBatch([echo], [{ name: 'echo', arguments: { text: 'a' } }, { id: 'given', name: 'echo', arguments: { text: 'b' } }], {}, {
      ids: () => `gen-${++n}`,
    });
    const events = await collect(agent, { message: 'x' });
    const calls = ofType(events, 'tool-call').map((e) => e.id);
    const results = ofType(events, 'tool-result').map((e) => e.id);
    expect(calls).toEqual(['gen-2', 'given']);
    expect(results).toEqual(calls);
    expect(toolMessages(doneOf(events).history).map((m) => m.tool_call_id)).toEqual(['gen-2', 'given']);
  });
});

describe('History: assistant tool-call turn, then one tool message per slot in slot order', () => {
  it('keeps slot order in history although the results finished in reverse', async () => {
    let release: (() => void)[] = [];
    const slow = defineTool({
      name: 'slow',
      description: '',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) =>
        new Promise<string>((resolve) => {
          release.push(() => resolve(`r${n}`));
          // Once all three run (and the loop holds their promises), finish them last-first.
          if (release.length === 3) queueMicrotask(() => release.reverse().forEach((r) => r()));
        }),
    });
    const agent = oneBatch([slow], [0, 1, 2].map((n) => ({ id: `c${n}`, name: 'slow', arguments: { n } })), { parallelTools: true });
    const events = await collect(agent, { message: 'x' });
    expect(ofType(events, 'tool-result').map((e) => e.slot)).toEqual([2, 1, 0]);
    const done = doneOf(events);
    expect(done.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    expect(toolMessages(done.history).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['c0', 'r0'],
      ['c1', 'r1'],
      ['c2', 'r2'],
    ]);
    release = [];
  });
});

describe('Turn input: instructions, memory and steering', () => {
  it('sends instructions and recalled memory as system messages without returning them in history', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [echo], instructions: 'Be brief.' });
    const prior: ChatMessage[] = [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'yes' }];
    const out = await agent.complete({ message: 'now', history: prior, memory: ['likes tea', 'lives in Oslo'] });
    expect(model.requests[0].messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Recalled memory (context for this turn only):\n- likes tea\n- lives in Oslo' },
      ...prior,
      { role: 'user', content: 'now' },
    ]);
    expect(out.history).toEqual([...prior, { role: 'user', content: 'now' }, { role: 'assistant', content: 'ok' }]);
    expect(prior).toHaveLength(2);
  });

  it('adds a steering message that arrives mid-turn as a user message at the start of the next iteration', async () => {
    const { Subject } = await import('rxjs');
    const steering = new Subject<string>();
    const tool = defineTool({
      name: 't',
      description: '',
      parameters: z.object({}),
      execute: async () => {
        steering.next('also check the weather');
        return 'done';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 't', arguments: {} }] }, { text: 'ok' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [tool] });
    const out = await agent.complete({ message: 'go', steering });
    expect(model.requests[1].messages.at(-1)).toEqual({ role: 'user', content: 'also check the weather' });
    expect(out.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(steering.observed).toBe(false);
  });

  it('does not lose a steering message that arrives while the model writes its final answer', async () => {
    const { Subject } = await import('rxjs');
    const steering = new Subject<string>();
    const model = scriptedModel((_req, n) => {
      if (n === 0) steering.next('and in French?');
      return { text: n === 0 ? 'hello' : 'bonjour' };
    });
    const out = await createAgent({ provider: model, model: 'm', tools: [] }).complete({ message: 'greet', steering });
    expect(out.text).toBe('bonjour');
    expect(out.history.map((m) => m.content)).toEqual(['greet', 'hello', 'and in French?', 'bonjour']);
  });
});
