import { Observable, Subscriber, type MonoTypeOperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { Stage } from '../runtime/stage.js';

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
      const stage = new OrderBySlot<T>(subscriber);
      subscriber.add(stage);
      source.subscribe(stage);
    });
}

class OrderBySlot<T extends { readonly slot: number } | TurnEvent> extends Stage<T, T> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new OrderBySlot(new Subscriber<never>());

  /** Results that came before their turn, by slot (made when the first one waits). */
  #held: (T | undefined)[] | undefined = undefined;
  /** The slot whose result goes out next. */
  #next = 0;

  protected onValue(item: T): void {
    const out = this.out;
    if (isTurnEvent(item)) {
      out.next(item);
      return;
    }
    const slot = (item as { readonly slot: number }).slot;
    if (slot !== this.#next) {
      (this.#held ??= [])[slot] = item;
      return;
    }
    out.next(item);
    let next = ++this.#next;
    const held = this.#held;
    if (held === undefined) return;
    let waiting = held[next];
    while (waiting !== undefined) {
      held[next] = undefined;
      out.next(waiting);
      this.#next = ++next;
      waiting = held[next];
    }
  }
}
