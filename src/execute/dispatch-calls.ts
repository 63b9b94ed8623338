import { concat, concatMap, defer, from, mergeMap, Observable, takeUntil, toArray, type OperatorFunction } from 'rxjs';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { dispatchMode } from './dispatch-mode.js';
import { executeOne } from './execute-one.js';

/**
 * Runs a prepared batch, sequentially or at most `maxParallelTools` at a time, and emits one
 * result per slot in completion order. On the turn's cancellation no further tool starts,
 * running tools are torn down (their signals abort), finished slots keep their results, and
 * every unfinished slot closes `interrupted` (slots filled by preparation keep their outcome).
 *
 * ```
 * prepared: (abc|)                      parallel, cap 2
 * a tool:   ----a|
 * b tool:   --b|
 * c tool:     ---c|
 * results:  --b-a-c|
 * cancel$:  ---x                        (instead)
 * results:  --b(ac|)                    a, c → interrupted
 * ```
 * @example
 * ```ts
 * prepared$.pipe(dispatchCalls(resolved, turn), orderBySlot());
 * ```
 */
export function dispatchCalls(resolved: ResolvedAgentExecution, turn: TurnState): OperatorFunction<PreparedCall, SlotResult> {
  return (source) => source.pipe(toArray(), mergeMap((batch) => dispatchBatch(resolved, turn, batch)));
}

/** `dispatchCalls` for a batch already in hand (the loop's path). */
export function dispatchBatch(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  batch: readonly PreparedCall[],
): Observable<SlotResult> {
  return defer(() => {
    let size = 0;
    for (const call of batch) size = Math.max(size, call.slot + 1);
    const progress = new Uint8Array(size);
    const run = (call: PreparedCall) => executeOne(resolved, turn, call, progress);
    const running =
      dispatchMode(resolved.knobs, batch) === 'parallel'
        ? from(batch).pipe(mergeMap(run, resolved.knobs.maxParallelTools))
        : from(batch).pipe(concatMap(run));
    const closeUnfinished = defer(() => from(batch.filter((call) => progress[call.slot] !== 2)).pipe(concatMap(closeAsFilled)));
    const closeAsFilled = (call: PreparedCall) => executeOne(resolved, turn, call.filled ? call : { ...call, tool: undefined }, progress);
    return concat(running.pipe(takeUntil(turn.cancel$)), closeUnfinished);
  });
}
