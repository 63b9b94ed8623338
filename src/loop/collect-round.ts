import type { Observable, OperatorFunction, Subscriber, TeardownLogic } from 'rxjs';
import type { SlotResult } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';

/** `isTurnEvent`, as this stage's own function (see isTurnEvent): this stage sees a few shapes. */
const isEvent = (value: object): value is TurnEvent => (value as { readonly type?: unknown }).type !== undefined;

/** A batch's results in slot order, and the receipts of its executions in completion order. */
export interface RoundResults {
  readonly results: readonly SlotResult[];
  readonly receipts: readonly string[];
}

/**
 * Collects a dispatched batch for its history round: passes events through, keeps the slot
 * results (already in slot order, after `orderBySlot`) and the receipts of the `tool-result`
 * events (completion order), and emits them once the batch completes.
 *
 * ```
 * source:  -e-a-e-b|          e: tool-result events, a, b: slot results
 * result:  -e---e--(r|)       r: { results: [a, b], receipts }
 * ```
 * @example
 * ```ts
 * dispatchCalls(it, calls).pipe(orderBySlot(), collectRound());
 * ```
 * @return Events, then the round's results.
 */
export function collectRound(): OperatorFunction<TurnEvent | SlotResult, TurnEvent | RoundResults> {
  return collected;
}

/** The operator itself: it takes no arguments, so every call of `collectRound` returns this one function. */
function collected(source: Observable<TurnEvent | SlotResult>): Observable<TurnEvent | RoundResults> {
  return new StageObservable(openRound, source, undefined, undefined);
}

function openRound(subscriber: Subscriber<TurnEvent | RoundResults>, source: Observable<TurnEvent | SlotResult>): TeardownLogic {
  // the stage's state in one object, its callbacks shared: no closures per subscription
  const state: RoundState = { subscriber, results: [], receipts: [] };
  subscribeStage(source, subscriber, roundNext, roundComplete, undefined, state);
}

interface RoundState extends RoundResults {
  readonly subscriber: Subscriber<TurnEvent | RoundResults>;
  readonly results: SlotResult[];
  readonly receipts: string[];
}

function roundNext(this: RoundState, value: TurnEvent | SlotResult): void {
  if (!isEvent(value)) {
    this.results.push(value);
    return;
  }
  if (value.type === 'tool-result' && value.receipt !== undefined) this.receipts.push(value.receipt);
  this.subscriber.next(value);
}

function roundComplete(this: RoundState): void {
  this.subscriber.next({ results: this.results, receipts: this.receipts });
  this.subscriber.complete();
}
