import { identity, NEVER, type Observable, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { turnCancellation, untilCancelled } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';
import { trackListeners } from './turn-harness.js';

describe("untilCancelled: takeUntil(turn.cancel$), and nothing for a turn that can't be cancelled", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('passes values until cancel$ emits, then completes and unsubscribes the source', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c-|');
      const cancel$ = cold<void>('--x');
      expectObservable(source.pipe(untilCancelled({ cancel$ }))).toBe('-a|');
      expectSubscriptions(source.subscriptions).toBe('^-!');
      expectSubscriptions(cancel$.subscriptions).toBe('^-!');
    });
  });

  // untilCancelled is a stage of ours: it keeps takeUntil's contract, case by case
  for (const [name, until] of [
    ['takeUntil', (cancel$: Observable<void>) => takeUntil<string>(cancel$)],
    ['untilCancelled', (cancel$: Observable<void>) => untilCancelled<string>({ cancel$ })],
  ] as const) {
    it(`${name}: a notifier that completes without a value changes nothing; the source's end unsubscribes it`, () => {
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-|');
        const cancel$ = cold<void>('--|');
        expectObservable(source.pipe(until(cancel$))).toBe('-a-b-c-|');
        expectSubscriptions(cancel$.subscriptions).toBe('^-!');
        const longer = cold<void>('-----------x');
        expectObservable(source.pipe(until(longer))).toBe('-a-b-c-|');
        expectSubscriptions(longer.subscriptions).toBe('^------!');
      });
    });

    it(`${name}: the notifier's error ends the result and unsubscribes the source; the source's error, the notifier`, () => {
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-|');
        expectObservable(source.pipe(until(cold<void>('---#', undefined, 'boom')))).toBe('-a-#', undefined, 'boom');
        expectSubscriptions(source.subscriptions).toBe('^--!');
        const failing = cold('-a-#', undefined, 'bad');
        const cancel$ = cold<void>('------x');
        expectObservable(failing.pipe(until(cancel$))).toBe('-a-#', undefined, 'bad');
        expectSubscriptions(cancel$.subscriptions).toBe('^--!');
      });
    });

    it(`${name}: a notifier that emits at once (an aborted signal) completes the result before the source is subscribed`, () => {
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-|');
        const ac = new AbortController();
        ac.abort();
        expectObservable(source.pipe(until(turnCancellation(ac.signal)))).toBe('|');
        expectSubscriptions(source.subscriptions).toBe([]);
      });
    });

    it(`${name}: an unsubscribe from outside leaves both source and notifier`, () => {
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-|');
        const cancel$ = cold<void>('------x');
        expectObservable(source.pipe(until(cancel$)), '^--!').toBe('-a-');
        expectSubscriptions(source.subscriptions).toBe('^--!');
        expectSubscriptions(cancel$.subscriptions).toBe('^--!');
      });
    });
  }

  it('a turn without a signal (cancel$ is NEVER) gets identity: no notifier is subscribed', () => {
    expect(untilCancelled({ cancel$: NEVER })).toBe(identity);
    scheduler.run(({ hot, expectObservable }) => {
      expectObservable(hot('-a-b-|').pipe(untilCancelled({ cancel$: turnCancellation(undefined) }))).toBe('-a-b-|');
    });
  });
});

describe("turnCancellation: the turn's signal as one shared Observable", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('is NEVER without a signal', () => {
    expect(turnCancellation(undefined)).toBe(NEVER);
  });

  it('every subscriber sees the abort, through one listener on the signal, removed afterwards', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    const cancel$ = turnCancellation(ac.signal);
    let most = 0;
    scheduler.run(({ cold, expectObservable }) => {
      cold('--x').subscribe(() => (most = Math.max(most, listeners.active())));
      cold('----x').subscribe(() => ac.abort());
      expectObservable(cancel$).toBe('----(x|)', { x: undefined });
      expectObservable(cancel$).toBe('----(x|)', { x: undefined });
      expectObservable(cancel$, '-^').toBe('----(x|)', { x: undefined });
    });
    expect(most).toBe(1);
    expect(listeners.active()).toBe(0);
  });

  it('tells its subscribers as a Subject does, in the order they came, also after some left', () => {
    const ac = new AbortController();
    const cancel$ = turnCancellation(ac.signal);
    const told: string[] = [];
    const subscriptions = ['a', 'b', 'c', 'd'].map((name) => cancel$.subscribe({ next: () => told.push(name), complete: () => told.push(`${name}|`) }));
    subscriptions[1].unsubscribe();
    cancel$.subscribe(() => told.push('e'));
    ac.abort();
    expect(told).toEqual(['a', 'c', 'd', 'e', 'a|', 'c|', 'd|']);
  });

  it('a subscriber that comes after the abort is told at once', () => {
    const ac = new AbortController();
    const cancel$ = turnCancellation(ac.signal);
    ac.abort();
    let seen = 0;
    cancel$.subscribe(() => seen++);
    cancel$.subscribe(() => seen++);
    expect(seen).toBe(2);
  });

  it('the listener goes when the last subscriber leaves before any abort', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    const cancel$ = turnCancellation(ac.signal);
    const a = cancel$.subscribe();
    const b = cancel$.subscribe();
    expect(listeners.active()).toBe(1);
    a.unsubscribe();
    expect(listeners.active()).toBe(1);
    b.unsubscribe();
    expect(listeners.active()).toBe(0);
  });
});
