import { lastValueFrom, type Observable, of, type Subscriber, Subject, type TeardownLogic, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { StageObservable } from '../../src/runtime/stage-observable.js';

/** A stage: numbers from `source`, each added to `offset`; `torn` counts its teardowns. */
function openOffset(subscriber: Subscriber<number>, source: Observable<number>, offset: number, torn: { count: number }): TeardownLogic {
  if (offset < 0) throw new Error(`negative offset: ${offset}`);
  const sub = source.subscribe({ next: (v) => subscriber.next(v + offset), error: (e) => subscriber.error(e), complete: () => subscriber.complete() });
  return () => {
    torn.count++;
    sub.unsubscribe();
  };
}

describe('StageObservable: a stage built without a closure', () => {
  it('subscribes with its arguments, once per subscription, like new Observable(fn)', () => {
    const torn = { count: 0 };
    const source = new Subject<number>();
    const stage$ = new StageObservable(openOffset, source, 10, torn);
    const first: unknown[] = [];
    const second: unknown[] = [];
    stage$.subscribe({ next: (v) => first.push(v), complete: () => first.push('done') });
    source.next(1);
    stage$.subscribe((v) => second.push(v));
    source.next(2);
    source.complete();
    expect(first).toEqual([11, 12, 'done']);
    expect(second).toEqual([12]);
    expect(torn.count).toBe(2); // each subscription's own teardown ran when it completed
  });

  it('what open returns is the teardown: unsubscribing runs it and frees the source', () => {
    const torn = { count: 0 };
    const source = new Subject<number>();
    const sub = new StageObservable(openOffset, source, 1, torn).subscribe();
    expect(source.observed).toBe(true);
    sub.unsubscribe();
    expect([torn.count, source.observed]).toEqual([1, false]);
  });

  it('what open throws errors the subscriber instead of escaping subscribe', () => {
    const seen: unknown[] = [];
    const stage$ = new StageObservable(openOffset, new Subject<number>(), -1, { count: 0 });
    expect(() => stage$.subscribe({ error: (e: Error) => seen.push(e.message) })).not.toThrow();
    expect(seen).toEqual(['negative offset: -1']);
  });

  it('pipes and composes like any Observable', async () => {
    const stage$ = new StageObservable(openOffset, of(1, 2, 3), 100, { count: 0 });
    expect(await lastValueFrom(stage$.pipe(toArray()))).toEqual([101, 102, 103]);
  });
});
