import { Observable, type OperatorFunction } from 'rxjs';
import type { SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

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
    new Observable((subscriber) => {
      const results: SlotResult[] = [];
      const receipts: string[] = [];
      return source.subscribe({
        next: (value) => {
          if (!isTurnEvent(value)) return void results.push(value);
          if (value.type === 'tool-result' && value.receipt !== undefined) receipts.push(value.receipt);
          subscriber.next(value);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          subscriber.next({ results, receipts });
          subscriber.complete();
        },
      });
    });
}
