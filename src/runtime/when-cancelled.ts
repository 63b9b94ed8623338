import { NEVER, type Observable, type Subscriber, type Subscription } from 'rxjs';
import { subscribeStage } from './stage-subscriber.js';

/**
 * Calls `onCancelled` (with `target` as `this`) when the turn is cancelled, for as long as
 * `subscriber` lives: a `StageSubscriber` of `turn.cancel$` kept in `subscriber`, where RxJS's
 * `cancel$.subscribe(callback)` makes a `SafeSubscriber`, its observer wrapper and a closure, and
 * runs `Observable.subscribe`'s checks (bench/RESULTS.md, "Session 21"). Nothing for a turn that
 * cannot be cancelled (`cancel$` is `NEVER`). The Subscription it answers stops listening early;
 * what `onCancelled` throws errors `subscriber`. Without `onCancelled`, it only holds the signal's
 * listener (`signalCancellation`) for `subscriber`'s life.
 *
 * ```
 * cancel$:     ----(x|)
 * onCancelled: ----x
 * ```
 * @example
 * ```ts
 * request.cancelSub = whenCancelled(it.turn, subscriber, onCancelled, request);
 * whenCancelled(turn, subscriber); // one listener for the turn's life
 * ```
 * @param turn Anything with the turn's `cancel$`.
 * @param subscriber The Subscriber whose life bounds the listening.
 * @return The listening, or undefined when the turn cannot be cancelled.
 */
export function whenCancelled<S>(
  turn: { readonly cancel$: Observable<void> },
  subscriber: Subscriber<never>,
  onCancelled: (this: S) => void = ignore,
  target?: S,
): Subscription | undefined {
  const { cancel$ } = turn;
  if (cancel$ === NEVER) return undefined;
  return subscribeStage(cancel$, subscriber, onCancelled, ignore, undefined, target);
}

function ignore(): void {}
