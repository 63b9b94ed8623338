import { Observable, type OperatorFunction } from 'rxjs';
import type { SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

/** A batch's results in slot order, and the receipts of its executions in completion order. */
export interface RoundResults {
  readonly results: readonly SlotResult[];
  readonly receipts: readonly string[];
}

/**
 * Collects a dispatched batch for its history round: passes events through, puts each slot
 * result at its slot, whatever order the results came in (a round's results in slot order, as
 * history takes them), keeps the receipts of the `tool-result` events (completion order), and
 * emits them once the batch completes.
 *
 * ```
 * source:  -e-b-e-a|          e: tool-result events, a, b: the results of slots 0 and 1
 * result:  -e---e--(r|)       r: { results: [a, b], receipts }
 * ```
 * @example
 * ```ts
 * dispatchCalls(it, calls).pipe(collectRound());
 * ```
 * @return Events, then the round's results.
 */
export function collectRound(): OperatorFunction<TurnEvent | SlotResult, TurnEvent | RoundResults> {
  return (source) =>
    new Observable((subscriber) => {
      const results: SlotResult[] = [];
      const receipts: string[] = [];
      let count = 0;
      return source.subscribe({
        next: (value) => {
          if (!isTurnEvent(value)) {
            if (results[value.slot] === undefined) count++;
            results[value.slot] = value;
            return;
          }
          if (value.type === 'tool-result' && value.receipt !== undefined) receipts.push(value.receipt);
          subscriber.next(value);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          // slots not from 0, or with gaps: the results that came, in slot order
          subscriber.next({ results: count === results.length ? results : results.filter(isResult), receipts });
          subscriber.complete();
        },
      });
    });
}

const isResult = (result: SlotResult | undefined): result is SlotResult => result !== undefined;
