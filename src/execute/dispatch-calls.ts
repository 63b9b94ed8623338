import { concat, concatMap, defer, from, mergeMap, Observable, takeUntil, toArray, type OperatorFunction } from 'rxjs';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { dispatchMode } from './dispatch-mode.js';
import { executeOne } from './execute-one.js';
import { startCall, stopCall, type CallHandle, type SlotProgress } from './running-call.js';

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
    const limit = dispatchMode(resolved.knobs, batch) === 'parallel' ? resolved.knobs.maxParallelTools : 1;
    const running = runLimited(resolved, turn, batch, progress, limit);
    const closeUnfinished = defer(() => from(batch.filter((call) => progress[call.slot] !== 2)).pipe(concatMap(closeAsFilled)));
    const closeAsFilled = (call: PreparedCall) => executeOne(resolved, turn, call.filled ? call : { ...call, tool: undefined }, progress);
    return concat(running.pipe(takeUntil(turn.cancel$)), closeUnfinished);
  });
}

/**
 * Starts the calls in batch order, at most `limit` at a time (1: one after another), and emits
 * their results in completion order — what `mergeMap(executeOne, limit)` does, without an inner
 * subscription per call. Unsubscribing tears down the running calls (their signals abort) and
 * starts no other.
 */
function runLimited(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  batch: readonly PreparedCall[],
  progress: SlotProgress,
  limit: number,
): Observable<SlotResult> {
  return new Observable<SlotResult>((subscriber) => {
    /** The calls whose tools are running, by slot (finished ones are dropped at once). */
    const running: (CallHandle | undefined)[] = [];
    let next = 0;
    let active = 0;
    let starting = false;
    const sink = {
      get closed() {
        return subscriber.closed;
      },
      next: (result: SlotResult) => {
        running[result.slot] = undefined;
        subscriber.next(result);
      },
      complete: () => {
        active--;
        startMore();
      },
    };
    const startMore = (): void => {
      if (starting) return;
      starting = true;
      while (active < limit && next < batch.length && !subscriber.closed) {
        const call = batch[next++];
        active++;
        const handle = startCall(resolved, turn, call, progress, sink);
        if (handle !== undefined) running[call.slot] = handle;
      }
      starting = false;
      if (active === 0 && next >= batch.length) subscriber.complete();
    };
    startMore();
    // Runs on completion too; stopping a finished call does nothing.
    return () => {
      for (let k = 0; k < next; k++) {
        const handle = running[batch[k].slot];
        if (handle === undefined) continue;
        running[batch[k].slot] = undefined;
        stopCall(handle);
      }
    };
  });
}
