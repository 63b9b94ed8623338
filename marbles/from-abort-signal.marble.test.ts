import { takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromAbortSignal } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';
import { trackListeners } from './turn-harness.js';

describe('fromAbortSignal emits once and completes when the signal aborts, and removes its listener', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('emits at the moment of the abort, then completes', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    scheduler.run(({ cold, expectObservable }) => {
      const abort =    '---x';
      const expected = '---(x|)';
      cold(abort).subscribe(() => ac.abort());
      expectObservable(fromAbortSignal(ac.signal)).toBe(expected, { x: undefined });
    });
    expect(listeners.active()).toBe(0);
  });

  it('emits at once for a signal that is already aborted, adding no listener', () => {
    const ac = new AbortController();
    ac.abort();
    let added = 0;
    const add = ac.signal.addEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      added++;
      add(...args);
    }) as AbortSignal['addEventListener'];
    scheduler.run(({ expectObservable }) => {
      expectObservable(fromAbortSignal(ac.signal)).toBe('(x|)', { x: undefined });
    });
    expect(added).toBe(0);
  });

  it('never emits without a signal', () => {
    scheduler.run(({ expectObservable }) => {
      expectObservable(fromAbortSignal(undefined)).toBe('-');
    });
  });

  it('unsubscribing before the abort removes the listener, and the later abort is not seen', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    let activeAfterUnsub = -1;
    scheduler.run(({ cold, expectObservable }) => {
      const abort = '-----x';
      const unsub = '--!   ';
      cold(abort).subscribe(() => ac.abort());
      expectObservable(fromAbortSignal(ac.signal), unsub).toBe('--');
      scheduler.schedule(() => (activeAfterUnsub = listeners.active()), 3);
    });
    expect(activeAfterUnsub).toBe(0);
  });

  it('as a takeUntil notifier it stops a source at the abort and unsubscribes it', () => {
    const ac = new AbortController();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-d|');
      const abort =       '----x    ';
      const subs =        '^---!    ';
      const expected =    '-a-b|    ';
      cold(abort).subscribe(() => ac.abort());
      expectObservable(source.pipe(takeUntil(fromAbortSignal(ac.signal)))).toBe(expected);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('each subscriber gets its own listener', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    let during = -1;
    scheduler.run(({ cold, expectObservable }) => {
      const abort = '---x';
      cold(abort).subscribe(() => ac.abort());
      const aborted$ = fromAbortSignal(ac.signal);
      expectObservable(aborted$).toBe('---(x|)', { x: undefined });
      expectObservable(aborted$).toBe('---(x|)', { x: undefined });
      scheduler.schedule(() => (during = listeners.active()), 1);
    });
    expect(during).toBe(2);
    expect(listeners.active()).toBe(0);
  });
});
