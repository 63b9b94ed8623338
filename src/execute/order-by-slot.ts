import { Observable, type OperatorFunction } from 'rxjs';

/**
 * Re-emits items in slot order (0, 1, 2, …) however they arrive: each item is held until every
 * lower slot has been emitted. Linear: one array write per item, no sorting.
 *
 * ```
 * source:  --c-a---b----|     (slots 2, 0, 1)
 * result:  ----a---(bc)-|
 * ```
 * @example
 * ```ts
 * results$.pipe(orderBySlot()).subscribe((r) => history.push(r));
 * ```
 */
export function orderBySlot<T extends { readonly slot: number }>(): OperatorFunction<T, T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const held: (T | undefined)[] = [];
      let next = 0;
      return source.subscribe({
        next: (item) => {
          if (item.slot !== next) {
            held[item.slot] = item;
            return;
          }
          subscriber.next(item);
          next++;
          let waiting = held[next];
          while (waiting !== undefined) {
            held[next] = undefined;
            subscriber.next(waiting);
            waiting = held[++next];
          }
        },
        error: (err) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
    });
}
