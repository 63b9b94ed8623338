import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, ToolTimeoutError, type TurnEvent, type TurnEventOf } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel, type FakeTool } from '../src/testing/index.js';
import { code } from './turn-harness.js';

const calling = (...names: string[]) =>
  scriptedModel([{ toolCalls: names.map((name) => ({ id: name, name, arguments: {} })) }, { text: 'ok' }]);

const resultsOf = (events: readonly TurnEvent[]) =>
  events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');

const values = {
  I: 'iteration 1', s: 'call slow', f: 'call fast', S: 'slow failed', F: 'fast executed',
  J: 'iteration 2', t: 'text ok', z: 'done final',
};

describe('a tool that outlives its timeout fails with a clear error and its signal aborts', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it("the tool's own timeoutMs: at 5 ms the tool is torn down and the slot fails", () => {
    const events: TurnEvent[] = [];
    let slow!: FakeTool;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow$ = cold('----------(r|)', { r: 'late' });
      const expected =   '(Is)-(SJtz|)';
      const slowSubs =   '^----!       ';
      slow = fakeTool('slow', slow$, { timeoutMs: 5 });
      const agent = createAgent({ provider: calling('slow'), model: 'm', tools: [slow] });
      expectObservable(agent.run({ message: 'go' }).pipe(tap((e) => events.push(e)), map(code))).toBe(expected, values);
      expectSubscriptions(slow$.subscriptions).toBe(slowSubs);
    });
    expect(resultsOf(events).map((r) => [r.outcome, r.success, r.output, r.durationMs])).toEqual([
      ['failed', false, 'Error executing slow: timed out after 5 ms', 5],
    ]);
    const done = events.at(-1) as TurnEventOf<'done'>;
    expect(done.history[2]).toEqual({ role: 'tool', tool_call_id: 'slow', content: 'Error executing slow: timed out after 5 ms', isError: true });
    const { signal } = slow.calls[0];
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ToolTimeoutError);
  });

  it('knobs.toolTimeoutMs applies to a tool without its own timeout', () => {
    const events: TurnEvent[] = [];
    let slow!: FakeTool;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow$ = cold('----------(r|)', { r: 'late' });
      const expected =   '(Is)---(SJtz|)';
      const slowSubs =   '^------!      ';
      slow = fakeTool('slow', slow$);
      const agent = createAgent({ provider: calling('slow'), model: 'm', tools: [slow], knobs: { toolTimeoutMs: 7 } });
      expectObservable(agent.run({ message: 'go' }).pipe(tap((e) => events.push(e)), map(code))).toBe(expected, values);
      expectSubscriptions(slow$.subscriptions).toBe(slowSubs);
    });
    expect(resultsOf(events)[0].output).toBe('Error executing slow: timed out after 7 ms');
    expect(slow.calls[0].signal.aborted).toBe(true);
  });

  it("a tool's own timeoutMs wins over the knob; a tool that finishes in time is unaffected", () => {
    const events: TurnEvent[] = [];
    let fast!: FakeTool;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const fast$ = cold('-----(r|)', { r: 'quick' });
      const slow$ = cold('--------------------(r|)', { r: 'late' });
      const expected =   '(Ifs)F----(SJtz|)';
      const fastSubs =   '^----!            ';
      const slowSubs =   '^---------!       ';
      fast = fakeTool('fast', fast$);
      const agent = createAgent({
        provider: calling('fast', 'slow'),
        model: 'm',
        tools: [fast, fakeTool('slow', slow$, { timeoutMs: 10 })],
        knobs: { parallelTools: true, toolTimeoutMs: 6 },
      });
      expectObservable(agent.run({ message: 'go' }).pipe(tap((e) => events.push(e)), map(code))).toBe(expected, values);
      expectSubscriptions(fast$.subscriptions).toBe(fastSubs);
      expectSubscriptions(slow$.subscriptions).toBe(slowSubs);
    });
    expect(resultsOf(events).map((r) => r.output)).toEqual(['quick', 'Error executing slow: timed out after 10 ms']);
    expect(fast.calls[0].signal.aborted).toBe(false);
  });

  it('the timer of a tool that finished in time is cleared', () => {
    let pending = -1;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const fast$ = cold('----(r|)', { r: 'quick' });
      const expected =   '(If)(FJtz|)';
      const fastSubs =   '^---!';
      const agent = createAgent({ provider: calling('fast'), model: 'm', tools: [fakeTool('fast', fast$, { timeoutMs: 100 })] });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(expected, values);
      expectSubscriptions(fast$.subscriptions).toBe(fastSubs);
      scheduler.schedule(() => (pending = scheduler.actions.length), 5);
    });
    expect(pending).toBe(0);
  });
});
