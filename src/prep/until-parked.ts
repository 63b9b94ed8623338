import { type MonoTypeOperatorFunction, takeWhile } from 'rxjs';
import type { PreparedCall } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

/**
 * `takeWhile((v) => isTurnEvent(v) || v.paused === undefined, true)`: events and prepared calls
 * pass until a call parked at an approval, which is the last value; then the result completes
 * and the source is torn down (the calls behind it stay unprepared).
 *
 * ```
 * source:  -e-a-p-b-|        p: a call parked at an approval
 * result:  -e-a-(p|)
 * ```
 * @example
 * ```ts
 * from(calls).pipe(concatMap((call) => continuePreparation(toPrepared(call), 0, steps, ctx)), untilParked());
 * ```
 * @return The source's values up to and including the first parked call.
 */
export function untilParked<T extends TurnEvent | PreparedCall>(): MonoTypeOperatorFunction<T> {
  return takeWhile((value: T) => isTurnEvent(value) || (value as PreparedCall).paused === undefined, true);
}
