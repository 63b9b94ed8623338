import type { MonoTypeOperatorFunction, Observable, Subscriber, TeardownLogic } from 'rxjs';
import type { TurnEvent } from '../core/events.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';

/** `isTurnEvent`, as this stage's own function (see isTurnEvent): this stage sees a few shapes. */
const isEvent = (value: object): value is TurnEvent => (value as { readonly type?: unknown }).type !== undefined;

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
  return ordered;
}

/** The operator itself: it takes no arguments, so every call of `orderBySlot` returns this one function. */
function ordered<T extends { readonly slot: number } | TurnEvent>(source: Observable<T>): Observable<T> {
  return new StageObservable(openOrder<T>, source, undefined, undefined);
}

function openOrder<T extends { readonly slot: number } | TurnEvent>(subscriber: Subscriber<T>, source: Observable<T>): TeardownLogic {
  // the stage's state in one object, its callback shared: no closure per subscription
  const state: SlotOrder<T> = { subscriber, held: [], next: 0 };
  subscribeStage(source, subscriber, inOrder<T>, undefined, undefined, state);
}

interface SlotOrder<T> {
  readonly subscriber: Subscriber<T>;
  /** Items that came before a lower slot, by slot. */
  readonly held: (T | undefined)[];
  /** The slot to emit next. */
  next: number;
}

function inOrder<T extends { readonly slot: number } | TurnEvent>(this: SlotOrder<T>, item: T): void {
  const { subscriber, held } = this;
  if (isEvent(item)) {
    subscriber.next(item);
    return;
  }
  const slot = (item as { readonly slot: number }).slot;
  if (slot !== this.next) {
    held[slot] = item;
    return;
  }
  subscriber.next(item);
  this.next++;
  let waiting = held[this.next];
  while (waiting !== undefined) {
    held[this.next] = undefined;
    subscriber.next(waiting);
    waiting = held[++this.next];
  }
}
