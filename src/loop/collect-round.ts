import { Observable, type OperatorFunction } from 'rxjs';
import type { SlotResult } from '../core/calls.js';
import { innerEvent, isTurnEvent, type TokenUsage, type TurnEvent } from '../core/events.js';
import { sumUsage } from './sum-usage.js';

/** No tokens yet: where a round's nested usage starts. */
const NO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** A batch's results in slot order, and the receipts of its executions in completion order. */
export interface RoundResults {
  readonly results: readonly SlotResult[];
  readonly receipts: readonly string[];
  /** Tokens the batch's sub-agents reported (their nested `usage` events), when any did. */
  readonly usage?: TokenUsage;
}

/**
 * Collects a dispatched batch for its history round: passes events through, puts each slot
 * result at its slot, whatever order the results came in (a round's results in slot order, as
 * history takes them), keeps the receipts of the `tool-result` events (completion order), sums
 * the `usage` events nested in `delegate` events (a sub-agent's tokens, at any depth), and emits
 * them once the batch completes.
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
      let usage: TokenUsage | undefined;
      return source.subscribe({
        next: (value) => {
          if (!isTurnEvent(value)) {
            if (results[value.slot] === undefined) count++;
            results[value.slot] = value;
            return;
          }
          if (value.type === 'tool-result' && value.receipt !== undefined) receipts.push(value.receipt);
          else if (value.type === 'delegate') {
            const inner = innerEvent(value.event);
            if (inner.type === 'usage') usage = sumUsage(usage ?? NO_USAGE, inner);
          }
          subscriber.next(value);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          // slots not from 0, or with gaps: the results that came, in slot order
          const round = { results: count === results.length ? results : results.filter(isResult), receipts };
          subscriber.next(usage === undefined ? round : { ...round, usage });
          subscriber.complete();
        },
      });
    });
}

const isResult = (result: SlotResult | undefined): result is SlotResult => result !== undefined;
