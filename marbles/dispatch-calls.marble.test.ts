import { Subject, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { dispatchBatch, dispatchCalls } from '../src/operators.js';
import { createTestScheduler, fakeTool } from '../src/testing/index.js';
import { maxOverlap } from './turn-harness.js';
import { codes, executable, filled, parsedCall, stage } from './operator-harness.js';

const values = {
  a: 'call a', b: 'call b', c: 'call c', d: 'call d',
  A: '#0 executed', B: '#1 executed', C: '#2 executed', D: '#3 executed',
  x: 'a executed', y: 'b executed', z: 'c executed', w: 'd executed',
  I: '#0 interrupted', J: '#1 interrupted', K: '#2 interrupted',
  i: 'a interrupted', j: 'b interrupted', k: 'c interrupted',
  u: 'call nope', U: '#1 unknown', v: 'nope unknown',
};

describe('dispatchCalls runs a batch as mergeMap(executeOne, cap) or concatMap(executeOne), cut by takeUntil(cancel$)', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  const cases = [
    // cap, tool times (a, b, c), expected, subscriptions (a, b, c)
    { cap: 1, times: [6, 6, 6], expected: 'a 5ms (Axb) 1ms (Byc) 1ms (Cz|)', subs: ['^ 5ms !', '6ms ^ 5ms !', '12ms ^ 5ms !'] },
    { cap: 2, times: [20, 6, 8], expected: '(ab) 2ms (Byc) 3ms (Cz) 2ms (Ax|)', subs: ['^ 19ms !', '^ 5ms !', '6ms ^ 7ms !'] },
    { cap: 8, times: [20, 6, 12], expected: '(abc) 1ms (By) 2ms (Cz) 4ms (Ax|)', subs: ['^ 19ms !', '^ 5ms !', '^ 11ms !'] },
  ];
  for (const { cap, times, expected, subs } of cases) {
    it(`a parallel batch with cap ${cap} runs at most ${cap} at a time and emits in completion order`, () => {
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const runs = times.map((t) => cold(`${t}ms (r|)`, { r: 'v' }));
        const tools = runs.map((run, i) => fakeTool('abc'[i], run));
        const { it: iteration } = stage({ tools, knobs: { parallelTools: true, maxParallelTools: cap } });
        const batch = tools.map((tool, slot) => executable(slot, tool));
        expectObservable(codes(dispatchBatch(iteration, batch))).toBe(expected, values);
        runs.forEach((run, i) => expectSubscriptions(run.subscriptions).toBe(subs[i]));
      });
    });
  }

  it('caps are held: with cap 2 of four calls never more than two tools run at once', () => {
    scheduler.run(({ cold, expectObservable, flush }) => {
      const runs = [20, 6, 8, 6].map((t) => cold(`${t}ms (r|)`, { r: 'v' }));
      const tools = runs.map((run, i) => fakeTool('abcd'[i], run));
      const { it: iteration } = stage({ tools, knobs: { parallelTools: true, maxParallelTools: 2 } });
      const batch = tools.map((tool, slot) => executable(slot, tool));
      expectObservable(codes(dispatchBatch(iteration, batch))).toBe('(ab) 2ms (Byc) 3ms (Czd) 1ms (AxDw|)', values);
      flush();
      expect(maxOverlap(runs.flatMap((run) => run.subscriptions))).toBe(2);
    });
  });

  it('a sequential batch (parallel tools off) runs one call after the other, in slot order', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ = cold('6ms (r|)', { r: 'A' });
      const b$ = cold('6ms (r|)', { r: 'B' });
      const tools = [fakeTool('a', a$), fakeTool('b', b$)];
      const { it: iteration } = stage({ tools });
      expectObservable(codes(dispatchBatch(iteration, [executable(0, tools[0]), executable(1, tools[1])]))).toBe('a 5ms (Axb) 1ms (By|)', values);
      expectSubscriptions(a$.subscriptions).toBe('^ 5ms !');
      expectSubscriptions(b$.subscriptions).toBe('6ms ^ 5ms !');
    });
  });

  it('cancellation mid-batch: finished slots keep their results, running ones are torn down, the rest close interrupted', () => {
    const controller = new AbortController();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const runs = [6, 20, 20].map((t) => cold(`${t}ms (r|)`, { r: 'v' }));
      cold('12ms x').subscribe(() => controller.abort());
      const tools = runs.map((run, i) => fakeTool('abc'[i], run));
      const { it: iteration } = stage({ tools, signal: controller.signal, knobs: { parallelTools: true, maxParallelTools: 2 } });
      const batch = tools.map((tool, slot) => executable(slot, tool));
      expectObservable(codes(dispatchBatch(iteration, batch))).toBe('(ab) 2ms (Axc) 1ms (JjKk|)', values);
      expectSubscriptions(runs[1].subscriptions).toBe('^ 11ms !');
      expectSubscriptions(runs[2].subscriptions).toBe('6ms ^ 5ms !');
    });
    expect(controller.signal.aborted).toBe(true);
  });

  it('a slot decided by preparation keeps its outcome when the batch is cut before it ran', () => {
    const controller = new AbortController();
    scheduler.run(({ cold, expectObservable }) => {
      const a$ = cold('--(r|)', { r: 'A' });
      cold('-x').subscribe(() => controller.abort());
      const { it: iteration } = stage({ tools: [fakeTool('a', a$)], signal: controller.signal });
      // sequential: slot 1 (unknown) waits behind slot 0, which the cancel cuts
      expectObservable(codes(dispatchBatch(iteration, [executable(0, fakeTool('a', a$)), filled(1, 'nope')]))).toBe('a(Iiu Uv|)'.replace(' ', ''), values);
    });
  });

  it('unsubscribing tears every running tool down (an unsubscription chain), and starts no other', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ = cold('-----(r|)', { r: 'A' });
      const b$ = cold('------(r|)', { r: 'B' });
      const c$ = cold('-(r|)', { r: 'C' });
      const tools = [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)];
      const { it: iteration } = stage({ tools, knobs: { parallelTools: true, maxParallelTools: 2 } });
      const batch = tools.map((tool, slot) => executable(slot, tool));
      expectObservable(codes(dispatchBatch(iteration, batch)), '^--!').toBe('(ab)', values);
      expectSubscriptions(a$.subscriptions).toBe('^--!');
      expectSubscriptions(b$.subscriptions).toBe('^--!');
      expectSubscriptions(c$.subscriptions).toBe([]);
    });
  });

  it('as an operator it collects the prepared calls first; slots never prepared close interrupted', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const a$ = cold('-(r|)', { r: 'A' });
      const { it: iteration } = stage({ tools: [fakeTool('a', a$)] });
      const stop = new Subject<void>();
      const prepared$ = cold('--p--|', { p: executable(0, fakeTool('a', a$)) });
      const calls = [parsedCall(0, 'a'), parsedCall(1, 'b')];
      // slot 1 never arrives: prepared$ completes without it
      expectObservable(codes(prepared$.pipe(takeUntil(stop), dispatchCalls(iteration, calls)))).toBe('-----a(Axb Jj|)'.replace(' ', ''), values);
    });
  });
});
