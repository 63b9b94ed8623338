import type { Observable, Subscriber, TeardownLogic } from 'rxjs';
import { StageObservable } from './stage-observable.js';

/**
 * RxJS's `from(items)` for an array: each item in order, at once, then completion; a subscriber
 * that closes (unsubscribes, or is cancelled from an item) gets no more. Built as a
 * `StageObservable`, so neither building it, piping it nor subscribing to it makes a closure;
 * the loop starts two stages from a list per iteration (the calls to prepare, the batch to run).
 *
 * ```
 * items:  [a, b, c]
 * result: (abc|)
 * ```
 * @example
 * ```ts
 * fromItems(batch).pipe(mergeMapMany((call) => executeOne(it, call), 8));
 * ```
 * @param items The items, read when subscribed.
 * @return An Observable of the items.
 */
export function fromItems<T>(items: readonly T[]): Observable<T> {
  return new StageObservable(openItems<T>, items, undefined, undefined);
}

function openItems<T>(subscriber: Subscriber<T>, items: readonly T[]): TeardownLogic {
  for (let i = 0; i < items.length && !subscriber.closed; i++) subscriber.next(items[i]);
  subscriber.complete();
  return undefined;
}
