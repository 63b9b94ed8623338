import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AfterToolCallHook, type AgentConfig } from '../../src/index.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';


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
});
