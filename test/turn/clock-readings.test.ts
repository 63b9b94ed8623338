import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AfterToolCallHook, type AgentConfig, type TurnInput } from '../../src/index.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';
import { collect, doneOf, ofType } from './helpers.js';

/** Answers after `rounds` microtasks: calls given fewer rounds finish first, with no timer. */
const later = defineTool({
  name: 'later',
  description: 'Answers after some microtasks.',
  parameters: z.object({ rounds: z.number() }),
  execute: async ({ rounds }) => {
    for (let k = 0; k < rounds; k++) await Promise.resolve();
    return `after ${rounds}`;
  },
});

/** One round of calls to `later` (an unknown tool where `rounds` is negative), then an answer. */
const script = (rounds: readonly number[]): ScriptedResponse[] => [
  { toolCalls: rounds.map((n, k) => (n < 0 ? { id: `c${k}`, name: 'missing', arguments: {} } : { id: `c${k}`, name: 'later', arguments: { rounds: n } })) },
  { text: 'done' },
];

/** An agent on `script(rounds)` whose clock counts its readings and moves 7 ms at each. */
function timedAgent(rounds: readonly number[], config: Partial<AgentConfig> = {}) {
  const clock = { reads: 0, now: () => 7 * ++clock.reads };
  const agent = createAgent({ provider: scriptedModel(script(rounds)), model: 'm', tools: [later], clock, ...config });
  return { agent, clock };
}

describe('a turn reads the clock only for what someone reads', () => {
  it('a quiet turn (complete, nobody watching) times none of its calls, whatever their number', async () => {
    const readings = async (rounds: number[]) => {
      const { agent, clock } = timedAgent(rounds);
      await agent.complete({ message: 'go' });
      return clock.reads;
    };
    expect(await readings([0, 1, 2])).toBe(await readings([0]));
  });

  it('an afterToolCall hook gets each call measured through complete: two readings a call', async () => {
    const readings = async (rounds: number[]) => {
      const durations: number[] = [];
      const afterToolCall: AfterToolCallHook[] = [(_call, result) => void durations.push(result.durationMs)];
      const { agent, clock } = timedAgent(rounds, { hooks: { afterToolCall } });
      await agent.complete({ message: 'go' });
      return { reads: clock.reads, durations };
    };
    const one = await readings([0]);
    const three = await readings([0, 1, 2]);
    expect(three.reads - one.reads).toBe(4);
    expect(three.durations).toEqual([7, 7, 7]); // a reading at its start, one at its end
  });

  it('a full turn shows each call its duration; with a signal, closeUnfinished also times each slot it may have to close', async () => {
    const readings = async (input: TurnInput) => {
      const { agent, clock } = timedAgent([0, 1, 2], { knobs: { parallelTools: true } });
      const results = ofType(await collect(agent, input), 'tool-result');
      return { reads: clock.reads, durations: results.map((r) => r.durationMs) };
    };
    const unsignalled = await readings({ message: 'go' });
    const signalled = await readings({ message: 'go', signal: new AbortController().signal });
    expect(signalled.reads - unsignalled.reads).toBe(3);
    expect(unsignalled.durations.every((ms) => ms > 0)).toBe(true);
    expect(signalled.durations.every((ms) => ms > 0)).toBe(true);
  });
});

describe('a turn without a signal leaves out the steps only cancellation needs, with the same events', () => {
  // calls that finish in the reverse of their slot order, an unknown tool among them
  const rounds = [3, -1, 2, 0];
  for (const parallelTools of [false, true]) {
    it(`${parallelTools ? 'a parallel' : 'a sequential'} batch: the events of a turn with a signal that never aborts, history in slot order`, async () => {
      // a clock that stands still: the extra readings of a turn with a signal change no duration
      const run = (input: TurnInput) => collect(timedAgent(rounds, { knobs: { parallelTools }, clock: { now: () => 1_000 } }).agent, input);
      const unsignalled = await run({ message: 'go' });
      const signalled = await run({ message: 'go', signal: new AbortController().signal });
      expect(unsignalled).toEqual(signalled);
      const tools = doneOf(unsignalled).history.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
      expect(tools).toEqual(['c0', 'c1', 'c2', 'c3']);
      const completed = ofType(unsignalled, 'tool-result').map((r) => r.id);
      expect(completed).toEqual(parallelTools ? ['c1', 'c3', 'c2', 'c0'] : ['c0', 'c1', 'c2', 'c3']);
    });
  }
});
