import { Observable, type OperatorFunction } from 'rxjs';
import { INTERRUPTED, type PreparedCall, type SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
import { emitToolCall, emitToolResult } from './slot-events.js';
import { slotResult } from './slot-result.js';

/**
 * Makes sure every slot of a batch ends: passes events and results through, and when the
 * source completes (all calls finished, or the dispatch was cut by cancellation) closes each
 * slot that has no result yet, in slot order. An executable slot closes `interrupted` (with the
 * time it ran, when its `tool-call` event went out); a slot filled by preparation keeps its outcome. A slot
 * whose `tool-call` event did not go out gets one first (`executes: false`).
 *
 * ```
 * source:  -a--ca|            slot 0 executed; slot 1 opened (c), cut by cancellation
 * result:  -a--ca(re|)        r, e: slot 1's interrupted result and tool-result event
 * ```
 * @example
 * ```ts
 * from(batch).pipe(mergeMap((c) => executeOne(it, c), cap), takeUntil(cancel$), closeUnfinished(it, batch));
 * ```
 * @param it The iteration the batch belongs to.
 * @param batch The prepared batch, indexed by slot.
 * @return The same stream, with a result for every slot.
 */
export function closeUnfinished(it: IterationContext, batch: readonly PreparedCall[]): OperatorFunction<TurnEvent | SlotResult, TurnEvent | SlotResult> {
  return (source) =>
    new Observable<TurnEvent | SlotResult>((subscriber) => {
      const finished = new Uint8Array(batch.length);
      /** Clock reading when each slot's `tool-call` event went out (NaN: not yet). */
      const openedAt = new Float64Array(batch.length).fill(Number.NaN);
      let open: (unknown)[] | undefined;
      return subscribeStage(
        source,
        subscriber,
        (value) => {
          if (!isTurnEvent(value)) finished[value.slot] = 1;
          else if (value.type === 'tool-call') {
            // a slot decided by preparation closes with its own outcome and no duration: no clock read
            openedAt[value.slot] = value.executes ? it.resolved.clock.now() : 0;
            (open ??= [])[value.slot] = value.args;
          }
          subscriber.next(value);
        },
        () => {
          for (const call of batch) {
            if (finished[call.slot] === 1 || subscriber.closed) continue;
            const filled = call.filled ?? INTERRUPTED;
            const started = openedAt[call.slot];
            let shown: unknown;
            if (Number.isNaN(started)) {
              shown = emitToolCall(it, call, false, subscriber);
            } else {
              shown = open?.[call.slot];
            }
            const durationMs = Number.isNaN(started) || call.filled ? 0 : it.resolved.clock.now() - started;
            const result = slotResult(it, call, filled.outcome, filled.success, filled.output, durationMs);
            subscriber.next(result);
            emitToolResult(it, result, shown, subscriber);
          }
          subscriber.complete();
        },
      );
    });
}
