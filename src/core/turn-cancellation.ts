import { NEVER, type Observable, share } from 'rxjs';
import { fromAbortSignal } from './from-abort-signal.js';

/**
 * A turn's cancellation as one Observable: `NEVER` without a signal, else
 * `fromAbortSignal(signal).pipe(share())`, so the stages that wait on it at the same time share
 * one 'abort' listener, and none is left once they are gone. A stage that subscribes after the
 * abort is told at once.
 *
 * ```
 * signal:  ----abort
 * result:  ----(x|)          to every subscriber; a late one: (x|) at once
 * ```
 * @example
 * ```ts
 * const cancel$ = turnCancellation(input.signal);
 * from(batch).pipe(mergeMap(run, 8), takeUntil(cancel$));
 * ```
 * @param signal The turn's signal, if any.
 * @return Emits once and completes when the turn is cancelled.
 */
export function turnCancellation(signal: AbortSignal | undefined): Observable<void> {
  return signal ? fromAbortSignal(signal).pipe(share()) : NEVER;
}
