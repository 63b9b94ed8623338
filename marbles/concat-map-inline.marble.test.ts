import { concatMap, Observable, type ObservableInput, type OperatorFunction, of, Subject, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { concatMapInline } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';

type ConcatMapLike = <T, R>(project: (value: T, index: number) => Observable<R>) => OperatorFunction<T, R>;

// The same specs, run against RxJS's concatMap (the contract) and against concatMapInline.
describe.each([
  ['concatMap', concatMap as ConcatMapLike],
  ['concatMapInline', concatMapInline as ConcatMapLike],
])('%s: the concatMap contract', (_name, op) => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('runs one projection at a time; the values behind it wait in order', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c|');
      const inner = { a: cold('--x|'), b: cold('----y|'), c: cold('-z|') };
      expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b' | 'c']))).toBe('---x----y-z|');
      expectSubscriptions(inner.a.subscriptions).toBe('-^--!');
      expectSubscriptions(inner.b.subscriptions).toBe('----^----!');
      expectSubscriptions(inner.c.subscriptions).toBe('---------^-!');
    });
  });

  it('completes only when the source and the last projection completed', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      expectObservable(hot('-a|').pipe(op(() => cold('-----x|')))).toBe('------x|');
      expectObservable(hot('-a-----|').pipe(op(() => cold('-x|')))).toBe('--x----|');
    });
  });

  it('a projection error errors the result and tears the source down', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b----|');
      const inner = { a: cold('--#'), b: cold('-y|') };
      expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b']))).toBe('---#');
      expectSubscriptions(source.subscriptions).toBe('^--!');
      expectSubscriptions(inner.b.subscriptions).toBe([]);
    });
  });

  it('a source error errors the result and tears the running projection down', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a = cold('------x|');
      expectObservable(hot('-a--#').pipe(op(() => a))).toBe('----#');
      expectSubscriptions(a.subscriptions).toBe('-^--!');
    });
  });

  it('a project that throws errors the result', () => {
    scheduler.run(({ hot, expectObservable }) => {
      const project = (v: string): Observable<string> => {
        if (v === 'b') throw new Error('boom');
        return of(v.toUpperCase());
      };
      expectObservable(hot('-a-b|').pipe(op(project))).toBe('-A-#', { A: 'A' }, new Error('boom'));
    });
  });

  it('unsubscribing tears the running projection down; waiting values never start', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c--|');
      const inner = { a: cold('------x|'), b: cold('-y|'), c: cold('-z|') };
      expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b' | 'c'])), '^----!').toBe('');
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expectSubscriptions(inner.a.subscriptions).toBe('-^---!');
      expectSubscriptions(inner.b.subscriptions).toBe([]);
    });
  });

  it('a teardown that comes while a projection is being subscribed closes it at once', () => {
    const stop = new Subject<void>();
    let closedInside: boolean | undefined;
    const inner = new Observable<string>((s) => {
      stop.next(); // the consumer leaves while the projection starts
      closedInside = s.closed;
      s.next('late');
      s.complete();
    });
    const seen: string[] = [];
    of('a', 'b').pipe(op(() => inner), takeUntil(stop)).subscribe((v) => seen.push(v));
    expect(closedInside).toBe(true);
    expect(seen).toEqual([]);
  });

  it('passes the index of each source value, and runs synchronous projections back to back', () => {
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('(abc|)').pipe(op((v: string, i: number) => of(`${v}${i}`)))).toBe('(xyz|)', { x: 'a0', y: 'b1', z: 'c2' });
    });
  });
});

describe('concatMapInline: a projection that returns its value', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('emits it at once, with no inner subscription', () => {
    scheduler.run(({ hot, expectObservable }) => {
      expectObservable(hot('-a-b-c|').pipe(concatMapInline((v: string) => v.toUpperCase()))).toBe('-A-B-C|', { A: 'A', B: 'B', C: 'C' });
    });
  });

  it('waits behind a running projection, in order (the marble in its doc comment)', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const source = hot('-a-b-c|');
      const project = (v: string): Observable<string> | string => (v === 'a' ? cold('--x|') : v === 'b' ? 'y' : cold('-z|'));
      expectObservable(source.pipe(concatMapInline(project))).toBe('---xy-z|');
    });
  });

  it('mixes with Observables the way concatMap(of(value)) would', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('(abcd|)');
      const project = (v: string, i: number): Observable<string> | string => (i % 2 === 0 ? v : of(v.toUpperCase()));
      const expected = '(aBcD|)';
      expectObservable(source.pipe(concatMapInline(project))).toBe(expected);
      expectObservable(source.pipe(concatMap((v: string, i: number) => of(i % 2 === 0 ? v : v.toUpperCase())))).toBe(expected);
    });
  });

  it('stops at once when the consumer leaves on an inline value', () => {
    const seen: string[] = [];
    const project = (v: string): string => v;
    const stop = new Subject<void>();
    of('a', 'b', 'c')
      .pipe(concatMapInline(project), takeUntil(stop))
      .subscribe((v) => {
        seen.push(v);
        if (v === 'a') stop.next();
      });
    expect(seen).toEqual(['a']);
  });
});
