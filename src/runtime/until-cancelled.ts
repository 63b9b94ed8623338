import { identity, NEVER, type MonoTypeOperatorFunction, share, takeUntil, type Observable } from 'rxjs';
import { fromAbortSignal } from './from-abort-signal.js';

/**
 * A turn's cancellation as one Observable: `NEVER` without a signal, else `fromAbortSignal`
 * shared, so every stage that waits on it adds no listener of its own to the signal (one per
 * turn while any stage listens).
 *
 * ```
 * signal:  ----abort
 * result:  ----(x|)          to every subscriber
 * ```
 * @example
 * ```ts
 * const cancel$ = turnCancellation(input.signal);
 * ```
 */
export function turnCancellation(signal: AbortSignal | undefined): Observable<void> {
  return signal ? fromAbortSignal(signal).pipe(share()) : NEVER;
}

/**
 * `takeUntil(turn.cancel$)`, and nothing at all for a turn that cannot be cancelled (its
 * `cancel$` is `NEVER`, through which `takeUntil` passes everything): no notifier subscribed.
 *
 * ```
 * source:  -a-b-c-|
 * cancel$: ---x
 * result:  -a-|
 * ```
 * @example
 * ```ts
 * from(batch).pipe(mergeMap(run, 8), untilCancelled(it.turn));
 * ```
 * @param turn Anything with the turn's `cancel$`.
 * @return The source's values until the turn is cancelled.
 */
export function untilCancelled<T>(turn: { readonly cancel$: Observable<void> }): MonoTypeOperatorFunction<T> {
  return turn.cancel$ === NEVER ? identity : takeUntil(turn.cancel$);
}
