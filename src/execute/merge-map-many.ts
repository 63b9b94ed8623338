import { from, Observable, type ObservableInput, type OperatorFunction, type Subscriber } from 'rxjs';

/**
 * `mergeMap` for batches where thousands of inner Observables run at once. Same contract as
 * RxJS's `mergeMap(project, concurrent)`: each source value is projected in order, at most
 * `concurrent` inner Observables are subscribed at a time (the rest wait in order), their values
 * are emitted as they come, a waiting value is subscribed once an inner completes and is torn
 * down, the result completes when the source and every inner completed, any error errors the
 * result, and unsubscribing tears every inner down. The difference is its bookkeeping: RxJS
 * keeps each inner subscription in its Subscriber's list of finalizers and removes it with an
 * `indexOf` and a `splice`, which costs O(n²) over n inners that run together; here each one is
 * added to and removed from a Set, O(1). marbles/merge-map-many.marble.test.ts runs the same
 * specs against both.
 *
 * ```
 * source:  -a-b-c|             concurrent 2
 * a inner:  --x|
 * b inner:    ----y|
 * c inner:      -z|            (c waits until a's inner ended)
 * result:  ---x--zy|
 * ```
 * @example
 * ```ts
 * from(batch).pipe(mergeMapMany((call) => executeOne(it, call), 10_000));
 * ```
 * @param project Maps each source value (and its index) to an ObservableInput.
 * @param concurrent How many inner Observables run at once (default: no limit).
 * @return The inner Observables' values, merged.
 */
export function mergeMapMany<T, R>(project: (value: T, index: number) => ObservableInput<R>, concurrent = Infinity): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      const waiting: T[] = [];
      let head = 0;
      let active = 0;
      let index = 0;
      let sourceDone = false;
      const inners = new Set<Subscriber<R>>();
      const checkComplete = (): void => {
        if (sourceDone && active === 0 && head === waiting.length) subscriber.complete();
      };
      const startNext = (): void => {
        while (active < concurrent && head < waiting.length && !subscriber.closed) {
          const value = waiting[head];
          waiting[head++] = undefined as T; // let it go
          start(value);
        }
        if (head === waiting.length) {
          waiting.length = 0;
          head = 0;
        }
      };
      const start = (value: T): void => {
        active++;
        let inner$: Observable<R>;
        try {
          inner$ = from(project(value, index++));
        } catch (err) {
          subscriber.error(err);
          return;
        }
        let completed = false;
        new Observable<R>((inner) => {
          // in the set before the inner runs, so a teardown meanwhile closes it at once (as mergeMap's does)
          inners.add(inner);
          inner$.subscribe(inner);
          // after the inner's own teardown (at once when it already ended), like mergeMap's finalizer
          inner.add(() => {
            inners.delete(inner);
            if (!completed) return;
            active--;
            startNext();
            checkComplete();
          });
        }).subscribe({
          next: (v) => subscriber.next(v),
          error: (err: unknown) => subscriber.error(err),
          complete: () => {
            completed = true;
          },
        });
      };
      // Registered first, so a teardown that comes while the source or an inner is still being
      // subscribed (a tool that cancels its own turn) closes every inner at once, as mergeMap's does.
      subscriber.add(() => {
        for (const inner of [...inners]) inner.unsubscribe();
        inners.clear();
        waiting.length = 0;
      });
      return source.subscribe({
        next: (value) => {
          if (subscriber.closed) return;
          if (active < concurrent) start(value);
          else waiting.push(value);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          checkComplete();
        },
      });
    });
}
