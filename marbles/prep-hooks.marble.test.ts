import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type BeforeToolCallDecision } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code } from './turn-harness.js';

describe('a beforeToolCall hook that answers later holds its call and the calls behind it (preparation is one call at a time)', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it("slot 1's hook starts only after slot 0's hook answered; tools start after both", () => {
    const echo = fakeTool('echo', 'ok');
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const hook0 = cold<BeforeToolCallDecision>('---(r|)', { r: { args: { v: 'rewritten' } } });
      const hook1 = cold<BeforeToolCallDecision>('--|'); // completes without a decision: the call is kept
      const expected = 'I----(cecfJtD|)';
      const subs0 =    '^--!';
      const subs1 =    '---^-!';
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { v: 0 } }, { name: 'echo', arguments: { v: 1 } }] }, { text: 'ok' }]),
        model: 'm',
        tools: [echo],
        hooks: { beforeToolCall: [(call) => (call.slot === 0 ? hook0 : hook1)] },
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(expected, {
        I: 'iteration 1', J: 'iteration 2', c: 'call echo', e: 'echo executed', f: 'echo executed', t: 'text ok', D: 'done final',
      });
      expectSubscriptions(hook0.subscriptions).toBe(subs0);
      expectSubscriptions(hook1.subscriptions).toBe(subs1);
    });
    expect(echo.calls.map((c) => c.args)).toEqual([{ v: 'rewritten' }, { v: 1 }]);
  });

  it('a cancel that arrives later fills the slot hook-cancelled at that frame, and the tool never starts', () => {
    const echo = fakeTool('echo', 'ok');
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const hook = cold<BeforeToolCallDecision>('--(x|)', { x: { cancel: 'not now' } });
      const expected = 'I-(cxJtD|)';
      const subs =     '^-!';
      const agent = createAgent({
        provider: scriptedModel([{ toolCalls: [{ name: 'echo', arguments: {} }] }, { text: 'ok' }]),
        model: 'm',
        tools: [echo],
        hooks: { beforeToolCall: [() => hook] },
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(expected, {
        I: 'iteration 1', J: 'iteration 2', c: 'call echo', x: 'echo hook-cancelled', t: 'text ok', D: 'done final',
      });
      expectSubscriptions(hook.subscriptions).toBe(subs);
    });
    expect(echo.calls).toEqual([]);
  });
});
