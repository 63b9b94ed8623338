import { NEVER, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { turnCancellation } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';
import { trackListeners } from './turn-harness.js';

describe("turnCancellation: the turn's signal as one shared Observable", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('is NEVER without a signal', () => {
    expect(turnCancellation(undefined)).toBe(NEVER);
  });

  it('takeUntil(cancel$) passes values until the abort, then completes and unsubscribes the source', () => {
    const ac = new AbortController();
    const cancel$ = turnCancellation(ac.signal);
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c-|');
      cold('--x').subscribe(() => ac.abort());
      expectObservable(source.pipe(takeUntil(cancel$))).toBe('-a|');
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });

  it('takeUntil(cancel$) of an aborted signal completes before the source is subscribed', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-|');
      const ac = new AbortController();
      ac.abort();
      expectObservable(source.pipe(takeUntil(turnCancellation(ac.signal)))).toBe('|');
      expectSubscriptions(source.subscriptions).toBe([]);
    });
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
