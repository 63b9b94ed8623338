import type { MonoTypeOperatorFunction, Observable, Subscriber, TeardownLogic } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';

/** `isTurnEvent`, as this stage's own function (see isTurnEvent): this stage sees a few shapes. */
const isEvent = (value: object): value is TurnEvent => (value as { readonly type?: unknown }).type !== undefined;

/**
 * `takeWhile((v) => isTurnEvent(v) || v.paused === undefined, true)`: events and prepared calls
 * pass until a call parked at an approval, which is the last value; then the result completes
 * and the source is torn down (the calls behind it stay unprepared). One Subscriber per
 * subscription, where RxJS's `takeWhile` makes an `OperatorSubscriber` with a closure per
 * callback (bench/RESULTS.md, "Session 9").
 *
 * ```
 * source:  -e-a-p-b-|        p: a call parked at an approval
 * result:  -e-a-(p|)
 * ```
 * @example
 * ```ts
 * from(calls).pipe(concatMapInline((call) => prepareFrom(call)), untilParked());
 * ```
 * @return The source's values up to and including the first parked call.
 */
export function untilParked<T extends TurnEvent | PreparedCall>(): MonoTypeOperatorFunction<T> {
  return parkedLast;
}

/** The operator itself: it takes no arguments, so every call of `untilParked` returns this one function. */
function parkedLast<T extends TurnEvent | PreparedCall>(source: Observable<T>): Observable<T> {
  return new StageObservable(openUntilParked<T>, source, undefined, undefined);
}

function openUntilParked<T extends TurnEvent | PreparedCall>(subscriber: Subscriber<T>, source: Observable<T>): TeardownLogic {
  subscribeStage(source, subscriber, passUntilParked<T>, undefined, undefined, subscriber);
}

function passUntilParked<T extends TurnEvent | PreparedCall>(this: Subscriber<T>, value: T): void {
  this.next(value);
  if (!isEvent(value) && (value as PreparedCall).paused !== undefined) this.complete();
}
