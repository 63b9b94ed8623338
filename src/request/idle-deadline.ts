import { Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { IdleTimer } from './idle-timer.js';

/**
 * Fails a stream that goes quiet: when no value (or completion) comes for `ms` after the
 * subscription or the last value, the source is torn down and `onIdle()` errors the result —
 * what `timeout({ each: ms, with })` does, with one timer per stream instead of one per value (a
 * value only records its time; when the timer fires early it waits out the rest). A provider
 * stream of 1,000 tool-call deltas arms one timer, not 1,000. Time is RxJS's async scheduler's,
 * so marble tests run it in virtual time.
 *
 * ```
 * source:  -a-b-----------      ms = 5
 * result:  -a-b-----#           5 frames after b
 * ```
 * @example
 * ```ts
 * events$.pipe(idleDeadline(120_000, () => new ProviderError('no event for 2 minutes')));
 * ```
 * @param ms How long the stream may be silent.
 * @param onIdle The error the result fails with.
 * @return The source's values, until it is silent for `ms`.
 */
export function idleDeadline<T>(ms: number, onIdle: () => unknown): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const idle = new IdleTimer(ms, () => {
        sourceSub.unsubscribe();
        subscriber.error(onIdle());
      });
      const sourceSub: Subscription = source.subscribe({
        next: (value) => {
          idle.touch();
          subscriber.next(value);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
      if (!subscriber.closed) idle.start();
      return () => {
        idle.stop();
        sourceSub.unsubscribe();
      };
    });
}
