import { identity, NEVER, type MonoTypeOperatorFunction, type Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import { StageObservable } from './stage-observable.js';
import { signalCancellation } from './signal-cancellation.js';
import { whenCancelled } from './when-cancelled.js';

/**
 * A turn's cancellation as one Observable: `NEVER` without a signal, else `fromAbortSignal`
 * shared (as `signalCancellation`), so every stage that waits on it adds no listener of its own
 * to the signal (one per turn while any stage listens).
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
  return signal ? signalCancellation(signal) : NEVER;
}

/**
 * `takeUntil(turn.cancel$)`, and nothing at all for a turn that cannot be cancelled (its
 * `cancel$` is `NEVER`, through which `takeUntil` passes everything): no notifier subscribed.
 * Built as `takeUntil` is (the notifier first, then the source straight into the same
 * Subscriber), as one stage of ours instead of RxJS's lifted operator: a turn with a signal
 * subscribes it twice per round (bench/RESULTS.md, "Session 20").
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
  if (turn.cancel$ === NEVER) return identity;
  return (source) => new StageObservable(openUntil<T>, source, turn, undefined);
}

function openUntil<T>(subscriber: Subscriber<T>, source: Observable<T>, turn: { readonly cancel$: Observable<void> }): TeardownLogic {
  // the notifier's value completes the result; its completion alone changes nothing; its error ends it
  whenCancelled(turn, subscriber, completeDestination, subscriber);
  if (!subscriber.closed) source.subscribe(subscriber);
}

function completeDestination(this: Subscriber<unknown>): void {
  this.complete();
}
