import { defer, from, lastValueFrom, map, of, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { PreparedCall, TurnEvent } from '../../src/index.js';
import { buildPrepSteps, prepGate, prepareCalls, resolveTool, validateArgs, type PrepStep } from '../../src/operators.js';
import { mayPark } from '../../src/prep/build-prep-steps.js';
import { echo, eventsIn, parsed, resultsIn, setup } from './helpers.js';

/** The prepared calls (the stage's events left out). */
const prepared = (calls: ReturnType<typeof parsed>[], steps: readonly PrepStep[], tools = [echo()]) => {
  const { it: ctx } = setup({ tools });
  return from(calls).pipe(prepareCalls(ctx, steps), toArray(), map((values) => resultsIn<PreparedCall>(values)));
};

describe('prepareCalls: every step in order, one call at a time, until the call is filled', () => {
  it('runs the steps in order on each call', async () => {
    const seen: string[] = [];
    const step = (label: string): PrepStep => (call) => (seen.push(`${label}${call.slot}`), call);
    await lastValueFrom(prepared([parsed(0, 'echo'), parsed(1, 'echo')], [step('a'), step('b')]));
    expect(seen).toEqual(['a0', 'b0', 'a1', 'b1']);
  });

  it('a filled call skips the steps after the one that filled it', async () => {
    const seen: number[] = [];
    const fill: PrepStep = (call) =>
      call.slot === 0 ? { ...call, filled: { outcome: 'hook-cancelled', output: 'no', success: false } } : call;
    const after: PrepStep = (call) => (seen.push(call.slot), call);
    const out = await lastValueFrom(prepared([parsed(0, 'echo'), parsed(1, 'echo')], [fill, after]));
    expect(seen).toEqual([1]);
    expect(out.map((c) => c.filled?.outcome)).toEqual(['hook-cancelled', undefined]);
  });

  it('a step that waits holds back the calls behind it, so calls leave in slot order', async () => {
    const gate = new Subject<void>();
    const log: string[] = [];
    const slow = prepGate((call) =>
      call.slot === 0 ? defer(() => (log.push('wait 0'), gate.pipe(map(() => call)))) : (log.push(`pass ${call.slot}`), of(call)),
    );
    const out: (TurnEvent | PreparedCall)[] = [];
    const { it: ctx } = setup({ tools: [echo()] });
    from([parsed(0, 'echo'), parsed(1, 'echo')]).pipe(prepareCalls(ctx, [slow])).subscribe((c) => out.push(c));
    expect(log).toEqual(['wait 0']);
    expect(out).toEqual([]);
    gate.next();
    expect(log).toEqual(['wait 0', 'pass 1']);
    expect(resultsIn(out).map((c) => c.slot)).toEqual([0, 1]);
  });

  it("a waiting step's events go out before its call, in the same stream", async () => {
    const usage: TurnEvent = { type: 'usage', inputTokens: 1, outputTokens: 0 };
    const noisy = prepGate((call) => (call.slot === 0 ? of<(TurnEvent | PreparedCall)[]>(usage, call) : of(call)));
    const { it: ctx } = setup({ tools: [echo()] });
    const values = await lastValueFrom(from([parsed(0, 'echo'), parsed(1, 'echo')]).pipe(prepareCalls(ctx, [noisy]), toArray()));
    expect(values.map((v) => ('slot' in v ? v.slot : v.type))).toEqual(['usage', 0, 1]);
    expect(eventsIn(values)).toEqual([usage]);
  });

  it('a gate may answer with a Promise', async () => {
    const later = prepGate((call) => Promise.resolve({ ...call, args: { v: 'rewritten' } }));
    const out = await lastValueFrom(prepared([parsed(0, 'echo', { v: 'x' })], [later]));
    expect(out[0].args).toEqual({ v: 'rewritten' });
  });
});

describe('resolveTool and validateArgs: calls that cannot run are filled, never executed', () => {
  it('resolveTool attaches the tool, or fills the slot unknown', async () => {
    const tool = echo();
    const out = await lastValueFrom(prepared([parsed(0, 'echo'), parsed(1, 'nope')], [resolveTool], [tool]));
    expect(out[0].tool).toBe(tool);
    expect(out[1].filled).toEqual({ outcome: 'unknown', output: 'Unknown tool: nope', success: false });
  });

  it('validateArgs keeps the parsed value, or fills invalid-arguments with the validation message', async () => {
    const out = await lastValueFrom(prepared([parsed(0, 'echo', { v: 'ok' }), parsed(1, 'echo', { v: 7 })], [resolveTool, validateArgs]));
    expect(out[0].filled).toBeUndefined();
    expect(out[0].args).toEqual({ v: 'ok' });
    expect(out[1].filled?.outcome).toBe('invalid-arguments');
    expect(out[1].filled?.output).toMatch(/^Error: invalid arguments for echo: [\s\S]*v/);
  });
});

describe('prepareCalls: a parked call is the last value', () => {
  const request = { id: 'r1' } as unknown as NonNullable<PreparedCall['paused']>;
  const park: PrepStep = (call) => (call.slot === 1 ? { ...call, paused: request } : call);

  it('with a step of its own that parks, the calls behind the parked one are not prepared', async () => {
    const seen: number[] = [];
    const count: PrepStep = (call) => (seen.push(call.slot), call);
    const out = await lastValueFrom(prepared([parsed(0, 'echo'), parsed(1, 'echo'), parsed(2, 'echo')], [count, park]));
    expect(out.map((c) => [c.slot, c.paused])).toEqual([
      [0, undefined],
      [1, request],
    ]);
    expect(seen).toEqual([0, 1]);
  });

  it('an agent pipeline without an approval gate prepares every call (it cannot park)', async () => {
    const steps = buildPrepSteps({});
    expect(mayPark(steps)).toBe(false);
    expect(mayPark(buildPrepSteps({ approval: {} }))).toBe(true);
    expect(mayPark([resolveTool, validateArgs])).toBe(true);
    const out = await lastValueFrom(prepared([0, 1, 2].map((k) => parsed(k, 'echo', { v: `${k}` })), steps));
    expect(out.map((c) => [c.slot, c.tool?.name, c.filled])).toEqual([
      [0, 'echo', undefined],
      [1, 'echo', undefined],
      [2, 'echo', undefined],
    ]);
  });
});
