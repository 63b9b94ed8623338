import { concatMap, mergeMap, Observable, type ObservableInput, type OperatorFunction, of, Subject, takeUntil } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { mergeMapMany } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';

type MergeMapLike = <T, R>(project: (value: T, index: number) => ObservableInput<R>, concurrent?: number) => OperatorFunction<T, R>;

// The same specs, run against RxJS's mergeMap (the contract) and against mergeMapMany.
describe.each([
  ['mergeMap', mergeMap as MergeMapLike],
  ['mergeMapMany', mergeMapMany as MergeMapLike],
])('%s: the mergeMap contract', (_name, op) => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('merges inner values as they come, with no limit', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c----|');
      const inner = { a: cold('--x|'), b: cold('----y|'), c: cold('-z|') };
      expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b' | 'c']))).toBe('---x--zy--|');
      expectSubscriptions(source.subscriptions).toBe('^---------!');
      expectSubscriptions(inner.a.subscriptions).toBe('-^--!');
      expectSubscriptions(inner.b.subscriptions).toBe('---^----!');
      expectSubscriptions(inner.c.subscriptions).toBe('-----^-!');
    });
  });

  for (const concurrent of [1, 2]) {
    it(`holds at most ${concurrent} inner subscriptions at once; the rest wait in order`, () => {
      scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
        const source = hot('-a-b-c|');
        const inner = { a: cold('--x|'), b: cold('----y|'), c: cold('-z|') };
        const expected = concurrent === 1 ? '---x----y-z|' : '---x--zy|';
        expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b' | 'c'], concurrent))).toBe(expected);
        if (concurrent === 1) {
          expectSubscriptions(inner.b.subscriptions).toBe('----^----!');
          expectSubscriptions(inner.c.subscriptions).toBe('---------^-!');
        } else {
          expectSubscriptions(inner.b.subscriptions).toBe('---^----!');
          expectSubscriptions(inner.c.subscriptions).toBe('-----^-!');
        }
      });
    });
  }

  it('completes only when the source and every inner completed', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const source = hot('-a|');
      expectObservable(source.pipe(op(() => cold('-----x|')))).toBe('------x|');
    });
  });

  it('an inner error errors the result and tears down the source and the other inners', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b----|');
      const inner = { a: cold('------x|'), b: cold('--#') };
      expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b']))).toBe('-----#');
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expectSubscriptions(inner.a.subscriptions).toBe('-^---!');
    });
  });

  it('a source error errors the result and tears every inner down', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a--#');
      const a = cold('------x|');
      expectObservable(source.pipe(op(() => a))).toBe('----#');
      expectSubscriptions(a.subscriptions).toBe('-^--!');
    });
  });

  it('a project that throws errors the result', () => {
    scheduler.run(({ hot, expectObservable }) => {
      const source = hot('-a-b|');
      expectObservable(
        source.pipe(
          op((v: string) => {
            if (v === 'b') throw new Error('boom');
            return of(v.toUpperCase());
          }),
        ),
      ).toBe('-A-#', { A: 'A' }, new Error('boom'));
    });
  });

  it('unsubscribing tears every running and waiting inner down (an unsubscription chain)', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c--|');
      const inner = { a: cold('------x|'), b: cold('------y|'), c: cold('-z|') };
      expectObservable(source.pipe(op((v: string) => inner[v as 'a' | 'b' | 'c'], 2)), '^----!').toBe('');
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expectSubscriptions(inner.a.subscriptions).toBe('-^---!');
      expectSubscriptions(inner.b.subscriptions).toBe('---^-!');
      expectSubscriptions(inner.c.subscriptions).toBe([]);
    });
  });

  it('unsubscribing tears the running inners down in the order they started', () => {
    const order: string[] = [];
    const inner = (name: string) => new Observable<string>(() => () => order.push(name));
    const sub = of('a', 'b', 'c').pipe(op((v: string) => inner(v))).subscribe();
    sub.unsubscribe();
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('a teardown that comes while an inner is being subscribed closes that inner at once', () => {
    const stop = new Subject<void>();
    let closedInside: boolean | undefined;
    const inner = new Observable<string>((s) => {
      stop.next(); // the consumer leaves while this inner starts (a tool that cancels its own turn)
      closedInside = s.closed;
      s.next('late');
      s.complete();
    });
    const seen: string[] = [];
    of('a', 'b')
      .pipe(
        op(() => inner),
        takeUntil(stop),
      )
      .subscribe((v) => seen.push(v));
    expect(closedInside).toBe(true);
    expect(seen).toEqual([]);
  });

  it('passes the index of each source value to project', () => {
    scheduler.run(({ hot, expectObservable }) => {
      const source = hot('-a-b-c|');
      expectObservable(source.pipe(op((v: string, i: number) => of(`${v}${i}`)))).toBe('-x-y-z|', { x: 'a0', y: 'b1', z: 'c2' });
    });
  });

  it('synchronous inner Observables run back to back under a limit of 1, like concatMap', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('(abc|)');
      const expected = '(ABC|)';
      expectObservable(source.pipe(op((v: string) => of(v.toUpperCase()), 1))).toBe(expected, { A: 'A', B: 'B', C: 'C' });
      expectObservable(source.pipe(concatMap((v: string) => of(v.toUpperCase())))).toBe(expected, { A: 'A', B: 'B', C: 'C' });
    });
  });
});
