import { Observable } from 'rxjs';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { startCall, stopCall, type SlotProgress } from './running-call.js';

export type { SlotProgress } from './running-call.js';
export { slotResult } from './slot-result.js';

/**
 * Runs one prepared call and closes its card. A filled slot only opens and closes its card.
 * An executable call opens its card right before the tool starts; the tool's signal aborts when
 * the subscription is torn down before the tool finished (cancellation) or on timeout.
 *
 * ```
 * call:    (p|)
 * tool:    ---r|
 * result:  ---(s|)     tool-call event at 0, tool-result event at 3
 * ```
 * @example
 * ```ts
 * executeOne(resolved, turn, prepared, progress).subscribe((slot) => results[slot.slot] = slot);
 * ```
 */
export function executeOne(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  call: PreparedCall,
  progress: SlotProgress,
): Observable<SlotResult> {
  return new Observable<SlotResult>((subscriber) => {
    const running = startCall({ resolved, turn, progress, epoch: 0 }, call, subscriber);
    return running ? () => stopCall(running) : undefined;
  });
}
