import { concat, concatMap, defer, from, mergeMap, Observable, takeUntil, toArray, type OperatorFunction, type Subscriber } from 'rxjs';
import type { PreparedCall, SlotResult } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { dispatchMode } from './dispatch-mode.js';
import { executeOne } from './execute-one.js';
import { startCall, stopCall, type CallHandle, type CallScope, type SlotProgress, type SlotSink } from './running-call.js';

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
 * `dispatchBatch`, collected: emits the results indexed by slot once every slot has ended (the
 * loop's path: no array grown per result, no operator between the calls and the slots).
 *
 * @example
 * ```ts
 * dispatchBatchBySlot(resolved, turn, batch).subscribe((results) => appendRound(...));
 * ```
 */
export function dispatchBatchBySlot(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  batch: readonly PreparedCall[],
): Observable<SlotResult[]> {
  return new Observable<SlotResult[]>((subscriber) => {
    const results: SlotResult[] = new Array(batch.length);
    return dispatchBatch(resolved, turn, batch).subscribe({
      next: (result) => {
        results[result.slot] = result;
      },
      error: (err: unknown) => subscriber.error(err),
      complete: () => {
        subscriber.next(results);
        subscriber.complete();
      },
    });
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
    const run = new LimitedRun(resolved, turn, batch, progress, limit, subscriber);
    run.startMore();
    return () => run.stop(); // runs on completion too; stopping a finished call does nothing
  });
}

/**
 * The state of one `runLimited` subscription: the scope its calls share, and the sink they
 * report to. A class, not an object literal: a literal with a `get closed()` accessor gets a V8
 * map of its own, allocated in the old generation, and that map keeps the getter's closure (and
 * through it the whole batch) alive through every young-generation collection until the next
 * full GC — measured: ~3 MB survived per scavenge at one call per turn, against ~10 KB with the
 * class.
 */
class LimitedRun implements CallScope, SlotSink {
  /** The calls whose tools are running, by slot (finished ones are dropped at once). */
  readonly #running: (CallHandle | undefined)[];
  #next = 0;
  #active = 0;
  #starting = false;
  readonly epoch: number;

  constructor(
    readonly resolved: ResolvedAgentExecution,
    readonly turn: TurnState,
    private readonly batch: readonly PreparedCall[],
    readonly progress: SlotProgress,
    private readonly limit: number,
    private readonly subscriber: Subscriber<SlotResult>,
  ) {
    this.epoch = resolved.clock.now();
    this.#running = new Array(progress.length);
  }

  get closed(): boolean {
    return this.subscriber.closed;
  }

  next(result: SlotResult): void {
    this.#running[result.slot] = undefined;
    this.subscriber.next(result);
  }

  complete(): void {
    this.#active--;
    this.startMore();
  }

  startMore(): void {
    if (this.#starting) return;
    this.#starting = true;
    const { batch, subscriber } = this;
    while (this.#active < this.limit && this.#next < batch.length && !subscriber.closed) {
      const call = batch[this.#next++];
      this.#active++;
      const handle = startCall(this, call, this);
      if (handle !== undefined) this.#running[call.slot] = handle;
    }
    this.#starting = false;
    if (this.#active === 0 && this.#next >= batch.length) subscriber.complete();
  }

  stop(): void {
    for (let k = 0; k < this.#next; k++) {
      const slot = this.batch[k].slot;
      const handle = this.#running[slot];
      if (handle === undefined) continue;
      this.#running[slot] = undefined;
      stopCall(handle);
    }
  }
}
