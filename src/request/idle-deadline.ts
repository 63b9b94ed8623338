import { type MonoTypeOperatorFunction, throwError, timeout } from 'rxjs';

/**
 * Fails a stream that goes quiet: when no value (or completion) comes for `ms` after the
 * subscription or the last value, the source is torn down and the result fails with what
 * `onIdle()` returns. It is `timeout({ each: ms, with })`, named for the loop's idle rule, so
 * marble tests run it in virtual time like any RxJS timer.
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
  return timeout({ each: ms, with: () => throwError(onIdle) });
}
