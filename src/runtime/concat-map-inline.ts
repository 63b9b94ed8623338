import { isObservable, Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { subscribeStage } from './stage-subscriber.js';

/**
 * `concatMap` for projections that are usually ready at once. Same contract as RxJS's
 * `concatMap(project)`: each source value is projected in order, one projection runs at a time
 * (values behind it wait in order), its values are emitted as they come, the result completes
 * when the source and the last projection completed, any error errors the result, and
 * unsubscribing tears the running projection down. The difference: a projection may return its
 * value itself instead of an Observable; that value is emitted at once, with no inner
 * subscription (the common case of `prepareCalls`, where no preparation step waits).
 * marbles/concat-map-inline.marble.test.ts runs the same specs against both.
 *
 * ```
 * source:  -a-b-c|            project: a → --x|, b → y (a value), c → -z|
 * result:  ---xy-z|           b waits behind a's projection, then y comes at once
 * ```
 * @example
 * ```ts
 * from(calls).pipe(concatMapInline((call) => (ready(call) ? call : prompt$(call))));
 * ```
 * @param project Maps each source value (and its index) to an Observable, or to the value itself.
 * @return The projections' values, in order.
 */
export function concatMapInline<T, R>(project: (value: T, index: number) => Observable<R> | R): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      const waiting: T[] = [];
      let head = 0;
      let index = 0;
      let inner: Subscriber<R> | undefined;
      let busy = false;
      let sourceDone = false;
      const run = (value: T): void => {
        let out: Observable<R> | R;
        try {
          out = project(value, index++);
        } catch (err) {
          subscriber.error(err);
          return;
        }
        if (!isObservable(out)) {
          subscriber.next(out);
          return;
        }
        busy = true;
        const inner$ = out;
        let completed = false;
        new Observable<R>((sub) => {
          // held before the projection runs, so a teardown meanwhile closes it at once (as concatMap's does)
          inner = sub;
          inner$.subscribe(sub);
          // after the projection's own teardown (at once when it already ended), as concatMap's
          sub.add(() => {
            if (inner === sub) inner = undefined;
            if (!completed) return;
            busy = false;
            drain();
          });
        }).subscribe({
          next: (v) => subscriber.next(v),
          error: (err: unknown) => subscriber.error(err),
          complete: () => {
            completed = true;
          },
        });
      };
      const drain = (): void => {
        while (!busy && head < waiting.length && !subscriber.closed) {
          const value = waiting[head];
          waiting[head++] = undefined as T; // let it go
          run(value);
        }
        if (head === waiting.length) {
          waiting.length = 0;
          head = 0;
        }
        if (!busy && sourceDone && head === waiting.length) subscriber.complete();
      };
      // registered first, so a teardown that comes while a projection is being subscribed closes it at once
      subscriber.add(() => {
        inner?.unsubscribe();
        waiting.length = 0;
      });
      return subscribeStage(
        source,
        subscriber,
        (value) => {
          if (subscriber.closed) return;
          if (busy) waiting.push(value);
          else run(value);
        },
        () => {
          sourceDone = true;
          if (!busy) subscriber.complete();
        },
      );
    });
}
