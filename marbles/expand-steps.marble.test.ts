import { EMPTY, expand, type MonoTypeOperatorFunction, type ObservableInput, of, Subject, takeUntil, Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { expandSteps } from '../src/operators.js';
import { createTestScheduler } from '../src/testing/index.js';

type ExpandLike = <T>(project: (value: T, index: number) => ObservableInput<T>) => MonoTypeOperatorFunction<T>;

// The same specs, run against RxJS's expand (the contract) and against expandSteps.
describe.each([
  ['expand', ((project) => expand(project)) as ExpandLike],
  ['expandSteps', expandSteps as ExpandLike],
])('%s: the expand contract', (_name, op) => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('emits each value, then what its projection emits, recursively', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a------|');
      const inner = { a: cold('-b|'), b: cold('--c|') };
      expectObservable(source.pipe(op((v: string) => (v === 'c' ? EMPTY : inner[v as 'a' | 'b'])))).toBe('-ab-c---|');
      expectSubscriptions(inner.a.subscriptions).toBe('-^-!');
      expectSubscriptions(inner.b.subscriptions).toBe('--^--!');
    });
  });

  it('completes only when the source and every projection completed', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const source = hot('-a|');
      expectObservable(source.pipe(op((v: string) => (v === 'a' ? cold('-----x|') : EMPTY)))).toBe('-a----x|');
    });
  });

  it('values that project to EMPTY pass straight through', () => {
    scheduler.run(({ hot, expectObservable }) => {
      expectObservable(hot<string>('-a-b-c|').pipe(op((): ObservableInput<string> => EMPTY))).toBe('-a-b-c|');
    });
  });

  it('passes each value\u2019s index to project, in emission order', () => {
    scheduler.run(({ hot, expectObservable }) => {
      const seen: string[] = [];
      expectObservable(hot('-a-----(b|)').pipe(op((v: string, i: number) => (seen.push(`${v}${i}`), v.length < 2 ? of(`${v}!`) : EMPTY)))).toBe(
        '-(aA)--(bB|)',
        { a: 'a', A: 'a!', b: 'b', B: 'b!' },
      );
      scheduler.flush();
      expect(seen).toEqual(['a0', 'a!1', 'b2', 'b!3']);
    });
  });

  it('an error of a projection errors the result and tears the source down', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-----b|');
      expectObservable(source.pipe(op((v: string) => (v === 'a' ? cold('--#') : EMPTY)))).toBe('-a-#');
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('a project that throws errors the result', () => {
    scheduler.run(({ hot, expectObservable }) => {
      const boom = new Error('boom');
      expectObservable(
        hot('-a|').pipe(
          op(() => {
            throw boom;
          }),
        ),
      ).toBe('-(a#)', undefined, boom);
    });
  });

  it('unsubscribing tears down the source and every running projection (an unsubscription chain)', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b----|');
      const inner = cold('------x|');
      expectObservable(source.pipe(op((v: string) => (v === 'x' ? EMPTY : inner))), '^----!').toBe('-a-b-');
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expectSubscriptions(inner.subscriptions).toBe(['-^---!', '---^-!']);
    });
  });

  it('a teardown that comes while a projection is being subscribed closes it at once', () => {
    const stop = new Subject<void>();
    let closedInside: boolean | undefined;
    const inner = new Observable<string>((s) => {
      stop.next();
      closedInside = s.closed;
      s.next('late');
    });
    const seen: string[] = [];
    of('a')
      .pipe(
        op((v: string) => (v === 'a' ? inner : EMPTY)),
        takeUntil(stop),
      )
      .subscribe((v) => seen.push(v));
    expect(closedInside).toBe(true);
    expect(seen).toEqual(['a']);
  });
});
