import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY, expand, lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  isTurnEvent,
  openAIChatProvider,
  ProviderError,
  type Agent,
  type TurnEvent,
  type TurnInput,
  type TurnSnapshot,
} from '../../src/index.js';
import { iterate } from '../../src/loop/iterate.js';
import { startSnapshot } from '../../src/loop/turn-snapshot.js';
import { createTurnContext } from '../../src/context/turn-context.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { clientFor } from './helpers.js';

let server: OpenAIServer | undefined;
const serve = async (script: readonly ServerStep[]) => (server = await startOpenAIServer(script));
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

const agentOn = (s: OpenAIServer, model = 'fixture-model'): Agent =>
  createAgent({ provider: openAIChatProvider(clientFor(s)), model, tools: [add] });

/**
 * Runs a turn like runToolLoop does, but keeps the latest snapshot (the start one, then each
 * step's) so a failed turn's history can be read.
 */
function runKeepingState(agent: Agent, input: TurnInput) {
  const events: TurnEvent[] = [];
  const turn = createTurnContext(agent.resolved, input);
  const state = { snapshot: startSnapshot(turn, input) as TurnSnapshot };
  const result = lastValueFrom(
    iterate(turn, state.snapshot).pipe(
      expand((value) => {
        if (isTurnEvent(value)) {
          events.push(value);
          return EMPTY;
        }
        state.snapshot = value.snapshot;
        return value.kind === 'next' ? iterate(turn, value.snapshot) : EMPTY;
      }),
    ),
  ).then(
    (step) => ({ step, error: undefined }),
    (error: unknown) => ({ step: undefined, error }),
  );
  return { events, state, result };
}

const addCall = { kind: 'reply', toolCalls: [{ id: 'call_1', name: 'add', arguments: ['{"a":', '1,"b":2}'] }] } as const;

describe('A native round over the real client', () => {
  it('sends the tool specs, runs the call, and sends history back with tool_call_id', async () => {
    const s = await serve([addCall, { kind: 'reply', text: ['The sum ', 'is 3.'] }]);
    const events = await lastValueFrom(agentOn(s).run({ message: 'What is 1+2?' }).pipe(toArray()));
    expect(s.requests[0].body.tools).toEqual([{ type: 'function', function: JSON.parse(JSON.stringify(add.spec)) }]);
    expect(s.requests[1].body.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '3' },
    ]);
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['The sum ', 'is 3.']);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'The sum is 3.', reason: 'final', iterations: 2 });
  });
});

describe('A provider failure ends the turn with ProviderError and nothing of the failed iteration in history', () => {
  it('an HTTP error in the second iteration rejects complete() with the status', async () => {
    const s = await serve([addCall, { kind: 'http-error', status: 502, message: 'bad gateway' }]);
    const err = await agentOn(s).complete({ message: 'What is 1+2?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(502);
  });

  it('history holds the user message and the finished round, not the failed request', async () => {
    const s = await serve([addCall, { kind: 'http-error', status: 500 }]);
    const run = runKeepingState(agentOn(s), { message: 'What is 1+2?' });
    const { error } = await run.result;
    expect(error).toBeInstanceOf(ProviderError);
    expect(run.state.snapshot.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('text streamed before a mid-stream reset went out as events but never reaches history', async () => {
    const step = { kind: 'reply', text: ['I will now ', 'answer fully'] } as const;
    const cut = eventOffset(replySse(step), 'answer fully');
    const s = await serve([{ ...step, split: [cut], resetAfterBytes: cut + 5 }]);
    const run = runKeepingState(agentOn(s), { message: 'hello' });
    const { error } = await run.result;
    expect((error as ProviderError).message).toMatch(/lost mid-stream/);
    expect(run.events.filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', iteration: 1, text: 'I will now ' }]);
    expect(run.state.snapshot.history).toEqual([{ role: 'user', content: 'hello' }]);
  });
});

describe('Cancelling the turn mid-stream stops the HTTP stream', () => {
  it('ends with done(cancelled), closes the connection, and keeps in history only the text streamed before the cancel', async () => {
    const step = { kind: 'reply', text: ['Thinking ', 'more'] } as const;
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
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', iteration: 1, text: 'Thinking ' }]);
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      reason: 'cancelled',
      history: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'Thinking ' },
      ],
    });
  });
});
