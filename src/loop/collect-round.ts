import { Observable, Subscriber, type OperatorFunction } from 'rxjs';
import type { SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { Stage } from '../runtime/stage.js';

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
  return (source) =>
    new Observable<TurnEvent | RoundResults>((subscriber) => {
      const stage = new CollectRound(subscriber);
      subscriber.add(stage);
      source.subscribe(stage);
    });
}

class CollectRound extends Stage<TurnEvent | SlotResult, TurnEvent | RoundResults> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new CollectRound(new Subscriber<never>());

  readonly #results: SlotResult[] = [];
  readonly #receipts: string[] = [];

  protected onValue(value: TurnEvent | SlotResult): void {
    if (!isTurnEvent(value)) {
      this.#results.push(value);
      return;
    }
    if (value.type === 'tool-result' && value.receipt !== undefined) this.#receipts.push(value.receipt);
    this.out.next(value);
  }

  protected override onEnd(): void {
    this.out.next({ results: this.#results, receipts: this.#receipts });
    this.out.complete();
  }
}
