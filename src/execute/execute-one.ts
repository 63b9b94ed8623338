import { Observable } from 'rxjs';
import { INTERRUPTED, type PreparedCall, type SlotResult } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { emitToolCall, emitToolResult } from './slot-events.js';
import { recordedSlotResult, slotResult } from './slot-result.js';
import { runTool } from './run-tool.js';
import type { BatchRun } from './batch-run.js';

/**
 * Runs one prepared call: its `tool-call` event right before the tool starts, then its slot
 * result and its `tool-result` event when the tool finishes. A slot decided by preparation
 * (filled) emits the three at once, with `executes: false`. Unsubscribing before the tool
 * finished (cancellation) aborts the tool's signal; after cancellation no tool starts (the
 * Observable completes empty, and `closeUnfinished` closes the slot).
 *
 * ```
 * call:    (p|)
 * tool:    ---v|
 * result:  c--(re|)      c: tool-call, r: slot result, e: tool-result
 * ```
 * @example
 * ```ts
 * from(batch).pipe(mergeMap((call) => executeOne(it, call), 4));
 * ```
 * @param it The iteration the call belongs to.
 * @param call A prepared call.
 * @param batch What the batch's calls share (`dispatchBatch` makes one).
 * @return The slot's events and its result.
 */
export function executeOne(it: IterationContext, call: PreparedCall, batch?: BatchRun): Observable<TurnEvent | SlotResult> {
  if (call.filled || !call.tool) return filledSlot(it, call);
  return new Observable((subscriber) => {
    // after cancellation, or once a call parked the batch with its sub-agent, no call starts
    if (it.turn.cancelled() || batch?.parked !== undefined) return subscriber.complete();
    const shown = emitToolCall(it, call, true, subscriber);
    // a consumer that cancels (or unsubscribes) from the tool-call event: the tool never starts
    if (subscriber.closed) return undefined;
    return runTool(it, call, shown, subscriber, batch).subscribe(subscriber);
  });
}

/** A slot decided by preparation: its `tool-call` event, its result, its `tool-result` event, at once. */
function filledSlot(it: IterationContext, call: PreparedCall): Observable<TurnEvent | SlotResult> {
  return new Observable((subscriber) => {
    const filled = call.filled ?? INTERRUPTED;
    const shown = emitToolCall(it, call, false, subscriber);
    const result = filled.recorded ? recordedSlotResult(call, filled.recorded) : slotResult(it, call, filled.outcome, filled.success, filled.output, 0);
    subscriber.next(result); // before its event: a consumer that cancels from the event keeps the result
    emitToolResult(it, result, shown, subscriber);
    subscriber.complete();
  });
}
