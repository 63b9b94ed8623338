import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

/**
 * Re-emits items in slot order (0, 1, 2, …) however they arrive: each item is held until every
 * lower slot has been emitted. Turn events in the same stream pass straight through. Linear:
 * one array write per item, no sorting.
 *
 * ```
 * source:  --c-a---b----|     (slots 2, 0, 1)
 * result:  ----a---(bc)-|
 * ```
 * @example
 * ```ts
 * dispatchBatch(it, batch).pipe(orderBySlot()).subscribe((r) => console.log(r));
 * ```
 * @return The items in slot order, events as they come.
 */
export function orderBySlot<T extends { readonly slot: number } | TurnEvent>(): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      /** Items that came before a lower slot, by slot. */
      const held: (T | undefined)[] = [];
      let next = 0;
      return source.subscribe({
        next: (item) => {
          if (isTurnEvent(item)) return subscriber.next(item);
          const { slot } = item as { readonly slot: number };
          if (slot !== next) {
            held[slot] = item;
            return;
          }
          subscriber.next(item);
          for (let waiting = held[++next]; waiting !== undefined; waiting = held[++next]) {
            held[next] = undefined;
            subscriber.next(waiting);
          }
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
    });
}
