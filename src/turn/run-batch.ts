import { mergeMap, type Observable } from 'rxjs';
import { dispatchBatchBySlot } from '../execute/dispatch-calls.js';
import { prepareBatch } from '../prep/prepare-batch.js';
import type { ParsedCall, SlotResult } from './calls.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';
import type { TurnState } from './turn-state.js';

/**
 * Prepares and dispatches one batch; emits the results indexed by slot (one per call) once
 * every slot has ended. Cancellation during preparation (a pending prompt) closes every call
 * not yet prepared as `interrupted`, without executing it.
 *
 * ```
 * calls:   (ab|)
 * results: ------(r|)     r[0], r[1] in slot order
 * ```
 * @example
 * ```ts
 * runBatch(resolved, turn, calls).subscribe((results) => appendRound(turn.history, ...));
 * ```
 */
export function runBatch(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  calls: readonly ParsedCall[],
): Observable<SlotResult[]> {
  return prepareBatch(resolved, turn, calls, resolved.prepSteps).pipe(
    mergeMap((batch) => dispatchBatchBySlot(resolved, turn, batch)),
  );
}
