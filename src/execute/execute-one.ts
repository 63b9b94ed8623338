import { Observable } from 'rxjs';
import { INTERRUPTED, type PreparedCall, type SlotResult } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
import { emitToolCall, emitToolResult } from './slot-events.js';
import { recordedSlotResult, slotResult } from './slot-result.js';
import { ToolRun } from './tool-run.js';

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
 * @return The slot's events and its result.
 */
export function executeOne(it: IterationContext, call: PreparedCall): Observable<TurnEvent | SlotResult> {
  return new Observable((subscriber) => {
    if (call.filled || !call.tool) {
      const filled = call.filled ?? INTERRUPTED;
      const shown = emitToolCall(it, call, false, subscriber);
      const result = filled.recorded ? recordedSlotResult(call, filled.recorded) : slotResult(it, call, filled.outcome, filled.success, filled.output, 0);
      subscriber.next(result); // before its event: a consumer that cancels from the event keeps the result
      emitToolResult(it, result, shown, subscriber);
      subscriber.complete();
      return undefined;
    }
    if (it.turn.cancelled()) {
      subscriber.complete();
      return undefined;
    }
    const shown = emitToolCall(it, call, true, subscriber);
    // A consumer may cancel (or unsubscribe) from the tool-call event: then the tool never starts.
    if (subscriber.closed) return undefined;
    const run = new ToolRun(it, call, subscriber, shown);
    run.start();
    return run; // its `unsubscribe` aborts the tool's signal
  });
}
