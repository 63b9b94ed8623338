import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { anthropicProvider, createAgent, defineTool, ProviderError, type Agent, type TurnEvent } from '../../src/index.js';
import { eventOffset, replySse, startAnthropicServer, type AnthropicServer, type AnthropicStep } from '../fixtures/anthropic-server.js';
import { anthropicFor } from './anthropic-helpers.js';

let server: AnthropicServer | undefined;
const serve = async (script: readonly AnthropicStep[]) => (server = await startAnthropicServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

const divide = defineTool({
  name: 'divide',
  description: 'Divides two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => {
    if (b === 0) throw new Error('division by zero');
    return String(a / b);
  },
});

const agentOn = (s: AnthropicServer): Agent =>
  createAgent({ provider: anthropicProvider(anthropicFor(s)), model: 'fixture-model', tools: [add, divide], instructions: 'Use the tools.' });

const thinking = { type: 'thinking', thinking: 'Add, then divide.', signature: 'EqQBCgIYAhIM' } as const;

/** A response that thinks, then asks for add (fine) and divide (throws), its JSON in fragments. */
const twoCalls: AnthropicStep = {
  kind: 'reply',
  content: [
    { type: 'thinking', thinking: ['Add, ', 'then divide.'], signature: thinking.signature },
    { type: 'tool_use', id: 'toolu_1', name: 'add', input: ['{"a": 1,', ' "b": 2}'] },
    { type: 'tool_use', id: 'toolu_2', name: 'divide', input: ['{"a": 1, "b"', ': 0}'] },
  ],
  usage: { input_tokens: 20, output_tokens: 30, cache_creation_input_tokens: 100, cache_read_input_tokens: 0 },
};
const answer: AnthropicStep = {
  kind: 'reply',
  content: [{ type: 'text', text: ['The sum ', 'is 3.'] }],
  usage: { input_tokens: 50, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 100 },
};

describe('A native round over the real Anthropic client', () => {
  it('sends back the assistant turn (thinking with its signature first) and the results, is_error on the failed one', async () => {
    const s = await serve([twoCalls, answer]);
    await agentOn(s).complete({ message: 'What is 1+2, and 1/0?' });
    const [first, second] = s.requests.map((r) => r.body);
    expect(first.system).toContain('Use the tools.');
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual(['add', 'divide']);
    expect(first.tools[0]).toEqual({ name: 'add', description: 'Adds two numbers', input_schema: JSON.parse(JSON.stringify(add.spec.parameters)) });
    expect(second.system).toBe(first.system);
    expect(second.messages).toEqual([
      { role: 'user', content: 'What is 1+2, and 1/0?' },
      {
        role: 'assistant',
        content: [
          thinking,
          { type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 1, b: 2 } },
          { type: 'tool_use', id: 'toolu_2', name: 'divide', input: { a: 1, b: 0 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '3' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: expect.stringContaining('division by zero'), is_error: true },
        ],
      },
    ]);
  });

  it('done.usage sums the turn, cache writes and reads counted as input', async () => {
    const s = await serve([twoCalls, answer]);
    const outcome = await agentOn(s).complete({ message: 'What is 1+2, and 1/0?' });
    expect(outcome).toMatchObject({ text: 'The sum is 3.', reason: 'final', iterations: 2 });
    expect(outcome.usage).toEqual({ inputTokens: 120 + 150, outputTokens: 30 + 7 });
  });

  it('streams every argument fragment as tool-call-delta events, all before the calls run', async () => {
    const s = await serve([twoCalls, answer]);
    const events = await lastValueFrom(agentOn(s).run({ message: 'What is 1+2, and 1/0?' }).pipe(toArray()));
    const kinds = events.map((e) => e.type);
    const deltas = events.filter((e): e is Extract<TurnEvent, { type: 'tool-call-delta' }> => e.type === 'tool-call-delta');
    expect(deltas.map((d) => [d.index, d.name, d.argumentsText])).toEqual([
      [0, 'add', '{"a": 1,'],
      [0, 'add', '{"a": 1, "b": 2}'],
      [1, 'divide', '{"a": 1, "b"'],
      [1, 'divide', '{"a": 1, "b": 0}'],
    ]);
    expect(deltas.map((d) => d.id)).toEqual(['toolu_1', 'toolu_1', 'toolu_2', 'toolu_2']);
    expect(kinds.lastIndexOf('tool-call-delta')).toBeLessThan(kinds.indexOf('tool-call'));
    expect(events.filter((e) => e.type === 'tool-call').map((e) => (e as { id: string }).id)).toEqual(['toolu_1', 'toolu_2']);
    expect(events.find((e) => e.type === 'response')).toEqual({
      type: 'response',
      iteration: 1,
      responseId: 'msg_fixture',
      responseModel: 'fixture-model',
      finishReason: 'tool_use',
    });
  });
});

describe('A failure ends the turn with ProviderError', () => {
  it('an HTTP 500 in the second iteration rejects complete() with the status', async () => {
    const s = await serve([twoCalls, { kind: 'http-error', status: 500, message: 'Internal server error' }]);
    const err = await agentOn(s).complete({ message: 'go' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(500);
  });

  it('cancelling mid-stream closes the connection and ends the turn as cancelled', async () => {
    const step: AnthropicStep = { kind: 'reply', content: [{ type: 'text', text: ['Thinking ', 'more'] }] };
    const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), 'more') }]);
    const controller = new AbortController();
    const events: TurnEvent[] = [];
    const done = new Promise<void>((resolve, reject) =>
      agentOn(s)
        .run({ message: 'hello', signal: controller.signal })
        .subscribe({
          next: (event) => {
            events.push(event);
            if (event.type === 'text-delta') controller.abort();
          },
          error: reject,
          complete: resolve,
        }),
    );
    await s.clientClosed(0);
    await done;
    expect(s.requests[0].closedByClient).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'cancelled' });
  });
});
