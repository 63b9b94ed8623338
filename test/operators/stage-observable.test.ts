import { config, lastValueFrom, map, Observable, of, Subject, Subscriber, type TeardownLogic, toArray } from 'rxjs';
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

describe('StageObservable: subscribe and pipe as RxJS does them', () => {
  const throwing = (subscriber: Subscriber<number>): TeardownLogic => {
    subscriber.next(1);
    throw new Error('open failed');
  };

  /** What each form sees, subscribed in the three ways RxJS allows (with an error handler, or without one). */
  function outcomes(make: () => Observable<number>, handled = true): unknown[] {
    const seen: unknown[] = [];
    const next = (v?: number) => void seen.push(v);
    const full = { next, error: (e: Error) => void seen.push(`error: ${e.message}`), complete: () => void seen.push('done') };
    const observer: Partial<typeof full> = handled ? full : { next };
    for (const subscribe of [
      // a Subscriber, as one stage subscribes to the next (without an error handler: a SafeSubscriber, as RxJS makes)
      (o: Observable<number>) => o.subscribe(handled ? new Subscriber(full) : (Subscriber.create(next) as Subscriber<number>)),
      (o: Observable<number>) => o.subscribe(observer),
      (o: Observable<number>) => o.subscribe(observer.next, observer.error, observer.complete), // RxJS's deprecated form
    ]) {
      try {
        subscribe(make());
      } catch (err) {
        seen.push(`thrown: ${(err as Error).message}`);
      }
      seen.push('|');
    }
    return seen;
  }

  it('a throwing open reaches the subscriber as RxJS delivers it, however it subscribed', () => {
    const ours = outcomes(() => new StageObservable(throwing, undefined, undefined, undefined));
    expect(ours).toEqual(outcomes(() => new Observable<number>((s) => throwing(s))));
    expect(ours).toEqual([1, 'error: open failed', '|', 1, 'error: open failed', '|', 1, 'error: open failed', '|']);
  });

  it('under RxJS deprecated synchronous error handling, an unhandled error is thrown from subscribe, as RxJS does', () => {
    config.useDeprecatedSynchronousErrorHandling = true;
    try {
      const rxjs = outcomes(() => new Observable<number>((s) => throwing(s)), false);
      expect(rxjs).toEqual([1, 'thrown: open failed', '|', 1, 'thrown: open failed', '|', 1, 'thrown: open failed', '|']);
      expect(outcomes(() => new StageObservable(throwing, undefined, undefined, undefined), false)).toEqual(rxjs);
    } finally {
      config.useDeprecatedSynchronousErrorHandling = false;
    }
  });

  it('subscribe with a Subscriber returns it, with the stage teardown added to it', () => {
    const torn = { count: 0 };
    const source = new Subject<number>();
    const subscriber = new Subscriber<number>();
    expect(new StageObservable(openOffset, source, 0, torn).subscribe(subscriber)).toBe(subscriber);
    subscriber.unsubscribe();
    expect([torn.count, source.observed]).toEqual([1, false]);
  });

  it('pipe applies the operators in order; with none it is the Observable itself', async () => {
    const stage$ = new StageObservable(openOffset, of(1, 2), 1, { count: 0 });
    expect(stage$.pipe()).toBe(stage$);
    const piped$: Observable<string> = stage$.pipe(
      map((v: number) => v * 10),
      map((v: number) => `#${v}`),
    );
    expect(await lastValueFrom(piped$.pipe(toArray()))).toEqual(['#20', '#30']);
  });
});
