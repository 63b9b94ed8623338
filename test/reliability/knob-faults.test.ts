import { from, lastValueFrom, type ObservableInput } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backchannelApproval, ConfigurationError, createAgent, defineTool, type KnobsInput } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { expectHealthyTurn, runTurn, slotSummary } from './turn-runner.js';

/**
 * Knobs (BEHAVIOUR.md, Knobs and defaults): counts are whole numbers, a fraction, NaN or a
 * non-number is a ConfigurationError at createAgent (never floored to 0, where a turn would hang
 * with no tool started); durations are whole ms up to 2,147,483,647, and `Infinity` or more is
 * no deadline where the knob allows none, never a timer that fires at once.
 */

const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: 'slow', arguments: { n: i } }));
const model = (n: number) => scriptedModel([{ toolCalls: calls(n) }, { text: 'done' }]);

/** A tool that answers after `ms` of real time: a deadline that fires at once would cut it. */
const slowTool = (ms: number, timeoutMs?: number) =>
  defineTool({
    name: 'slow',
    description: 'answers later',
    parameters: z.object({ n: z.number() }),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    execute: ({ n }) => new Promise<string>((resolve) => setTimeout(() => resolve(`ok ${n}`), ms)),
  });

describe('a count knob that is not a whole number is a ConfigurationError at createAgent', () => {
  const refused: [keyof KnobsInput, unknown][] = [
    ['maxParallelTools', 0.5],
    ['maxParallelTools', 2.7],
    ['maxParallelTools', Number.NaN],
    ['maxParallelTools', '4'],
    ['maxParallelTools', null],
    ['maxToolIterations', 0.5],
    ['maxToolIterations', Number.POSITIVE_INFINITY],
    ['maxToolIterations', '3'],
    ['maxMalformedProtocolRetries', 1.5],
    ['toolTimeoutMs', 0.5],
    ['toolTimeoutMs', Number.NaN],
    ['toolTimeoutMs', '100'],
    ['providerIdleTimeoutMs', 2 ** 31],
    ['providerIdleTimeoutMs', Number.POSITIVE_INFINITY],
  ];
  it.each(refused)('%s: %s', (knob, value) => {
    const make = () => createAgent({ provider: model(1), model: 'm', tools: [slowTool(0)], knobs: { [knob]: value } as KnobsInput });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(new RegExp(knob));
  });
});

describe('Infinity means no limit where the knob allows none', () => {
  it('maxParallelTools: Infinity runs every call of a batch at once (not silently 8)', async () => {
    let running = 0;
    let most = 0;
    const gate = defineTool({
      name: 'slow',
      description: '',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return `ok ${n}`;
      },
    });
    const agent = createAgent({ provider: model(12), model: 'm', tools: [gate], knobs: { parallelTools: true, maxParallelTools: Number.POSITIVE_INFINITY } });
    const run = await runTurn(agent);
    expectHealthyTurn(run);
    expect(most).toBe(12);
    expect(slotSummary(run.events).map(([, , outcome]) => outcome)).toEqual(Array(12).fill('executed'));
  });

  for (const [where, timeouts] of [
    ['toolTimeoutMs', { knob: 2 ** 31 }],
    ['toolTimeoutMs', { knob: Number.POSITIVE_INFINITY }],
    ["a tool's timeoutMs", { tool: 2 ** 31 }],
    ["a tool's timeoutMs", { tool: Number.POSITIVE_INFINITY }],
    ["a tool's timeoutMs past the limit, over a short toolTimeoutMs", { tool: Number.POSITIVE_INFINITY, knob: 1 }],
  ] as const) {
    it(`${where} of ${String('tool' in timeouts ? timeouts.tool : timeouts.knob)} ms is no deadline: a tool that takes 30 ms finishes`, async () => {
      const tool = slowTool(30, 'tool' in timeouts ? timeouts.tool : undefined);
      const knobs: KnobsInput = 'knob' in timeouts ? { toolTimeoutMs: timeouts.knob } : {};
      const run = await runTurn(createAgent({ provider: model(1), model: 'm', tools: [tool], knobs }));
      expectHealthyTurn(run);
      expect(slotSummary(run.events)).toEqual([[0, 'slow', 'executed', true, 'ok 0']]);
    });
  }

  it('a backchannel approval timeout past the limit is no deadline: the operator’s late yes counts', async () => {
    const door = backchannelApproval(() => new Promise((resolve) => setTimeout(() => resolve('yes'), 30)), { timeoutMs: Number.POSITIVE_INFINITY });
    const answer = door.ask({} as never, new AbortController().signal);
    expect(await lastValueFrom(from(answer as ObservableInput<unknown>))).toBe('yes');
  });
});
