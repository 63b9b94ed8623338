import { Observable, type OperatorFunction } from 'rxjs';
import { INTERRUPTED, type PreparedCall, type SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { emitToolCall, emitToolResult } from './slot-events.js';
import { slotResult } from './slot-result.js';

/**
 * Makes sure every slot of a batch ends: passes events and results through, and when the
 * source completes (all calls finished, or the dispatch was cut by cancellation) closes each
 * slot that has no result yet, in slot order. An executable slot closes `interrupted` (with the
 * time it ran, when its `tool-call` event went out); a slot filled by preparation keeps its
 * outcome. A slot whose `tool-call` event did not go out gets one first (`executes: false`).
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
    new Observable((subscriber) => {
      const slots: SlotProgress[] = new Array(batch.length);
      return source.subscribe({
        next: (value) => {
          if (!isTurnEvent(value)) slots[value.slot] = FINISHED;
          else if (value.type === 'tool-call') {
            // a slot decided by preparation closes with its own outcome and no duration
            slots[value.slot] = { startedAt: value.executes ? it.resolved.clock.now() : 0, shown: value.args };
          }
          subscriber.next(value);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          for (const call of batch) {
            const progress = slots[call.slot];
            if (progress === FINISHED || subscriber.closed) continue;
            const shown = progress === undefined ? emitToolCall(it, call, false, subscriber) : progress.shown;
            const filled = call.filled ?? INTERRUPTED;
            const durationMs = progress === undefined || call.filled ? 0 : it.resolved.clock.now() - progress.startedAt;
            const result = slotResult(it, call, filled.outcome, filled.success, filled.output, durationMs);
            subscriber.next(result);
            emitToolResult(it, result, shown, subscriber);
          }
          subscriber.complete();
        },
      });
    });
}

/** A slot whose `tool-call` event went out: when, and the arguments it showed. */
interface Opened {
  readonly startedAt: number;
  readonly shown: unknown;
}

/** Nothing yet (undefined), opened, or finished with a result. */
type SlotProgress = Opened | typeof FINISHED | undefined;

const FINISHED = 'finished';
