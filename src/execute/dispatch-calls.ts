import { concatMap, from, mergeMap, NEVER, type Observable, type OperatorFunction, takeUntil, tap } from 'rxjs';
import type { ParsedCall, PreparedCall, SlotResult } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import { continueWith } from '../core/continue-with.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { BatchRun } from './batch-run.js';
import { closeUnfinished } from './close-unfinished.js';
import { collectBatch } from './collect-batch.js';
import { dispatchMode } from './dispatch-mode.js';
import { executeOne } from './execute-one.js';
import { journaledRun } from './journaled-run.js';

/**
 * Runs a prepared batch and emits each slot's events and result in completion order: a parallel
 * batch as `mergeMap(executeOne, maxParallelTools)`, a sequential one as `concatMap(executeOne)`
 * (`dispatchMode` decides), cut by `takeUntil(cancel$)`. On the turn's cancellation no further
 * tool starts, running tools are torn down (their signals abort), finished slots keep their
 * results, and every unfinished slot closes `interrupted` (`closeUnfinished`; slots filled by
 * preparation keep their outcome). A running call that runs a sub-agent's turn (`delegateTool`)
 * hears of the cancellation just before the cut (`BatchRun`), so its sub-agent's closing events
 * still come before the call's own result. A turn without a signal (`cancel$` is `NEVER`) has neither
 * step: each of its calls ends with its result. Prepared calls are collected into the batch first
 * (`collectBatch`), since the mode depends on the whole batch.
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
 * from(calls).pipe(prepareCalls(it), takeUntil(it.turn.cancel$), dispatchCalls(it, calls), orderBySlot());
 * ```
 * @param it The iteration the calls belong to.
 * @param calls The batch's parsed calls (slots not prepared close `interrupted`).
 * @return Events and slot results, in completion order.
 */
export function dispatchCalls(it: IterationContext, calls?: readonly ParsedCall[]): OperatorFunction<TurnEvent | PreparedCall, TurnEvent | SlotResult> {
  return (source) => source.pipe(collectBatch(calls), continueWith((batch: PreparedCall[]) => dispatchBatch(it, batch)));
}

/**
 * `dispatchCalls` for a batch already in hand (indexed by slot). `shared` is what its calls share
 * (`BatchRun`): the loop passes one that parks the batch when a call parks with its sub-agent,
 * and the sub-agents' turns a resumed batch resumes.
 *
 * @example
 * ```ts
 * dispatchBatch(it, batch).pipe(collectRound());
 * ```
 */
export function dispatchBatch(it: IterationContext, batch: readonly PreparedCall[], shared = new BatchRun(it.resolved.logger)): Observable<TurnEvent | SlotResult> {
  const { journal } = it.turn;
  const run = journal
    ? (call: PreparedCall): Observable<TurnEvent | SlotResult> => journaledRun(it, call, journal, shared)
    : (call: PreparedCall): Observable<TurnEvent | SlotResult> => executeOne(it, call, shared);
  const parallel = dispatchMode(it.resolved.knobs, batch) === 'parallel';
  const dispatched = from(batch).pipe(parallel ? mergeMap(run, it.resolved.knobs.maxParallelTools) : concatMap(run));
  // nothing can cancel a turn without a signal: each call ends with its result, none is left to close
  if (it.turn.cancel$ === NEVER) return dispatched;
  // calls that run a sub-agent's turn hear of the cancellation first, while their events can still go out
  const cancel$ = it.turn.cancel$.pipe(tap(() => shared.cancel()));
  return dispatched.pipe(takeUntil(cancel$), closeUnfinished(it, batch));
}
