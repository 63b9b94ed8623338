import { Observable, type Subscriber } from 'rxjs';
import { INTERRUPTED, type ParsedCall, type PreparedCall } from '../turn/calls.js';
import type { ResolvedAgentExecution } from '../turn/resolved-execution.js';
import type { TurnState } from '../turn/turn-state.js';
import { CallPreparer, type PreparedSink } from './call-preparer.js';
import { createPrepContext, type PrepStep } from './prep-step.js';

/**
 * Prepares a whole batch — what `from(calls).pipe(prepareCalls(…), takeUntil(turn.cancel$),
 * toArray())` does, without an Observable hop per call — and emits it indexed by slot. When
 * the turn is cancelled during preparation (a pending prompt, or a step that aborts the turn),
 * the calls not prepared by then are closed `interrupted`, without executing.
 *
 * ```
 * calls:    [a, b]           a needs a prompt
 * operator: ---y|
 * result:   ---([a, b]|)
 * cancel$:  -x               (instead)
 * result:   -([a', b']|)     a', b': interrupted
 * ```
 * @example
 * ```ts
 * prepareBatch(resolved, turn, calls, resolved.prepSteps).subscribe((batch) => dispatch(batch));
 * ```
 */
export function prepareBatch(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  calls: readonly ParsedCall[],
  steps: readonly PrepStep[],
): Observable<PreparedCall[]> {
  return new Observable<PreparedCall[]>((subscriber) => {
    const sink = new BatchSink(turn, calls, subscriber);
    const preparer = new CallPreparer(steps, createPrepContext(resolved, turn), sink, calls);
    const cancelled = turn.cancel$.subscribe(() => {
      preparer.unsubscribe();
      sink.complete();
    });
    if (!sink.closed) preparer.end();
    return () => {
      cancelled.unsubscribe();
      preparer.unsubscribe();
    };
  });
}

/** Collects a batch's prepared calls by slot; completing fills the rest `interrupted` and emits it once. */
class BatchSink implements PreparedSink {
  readonly #batch: PreparedCall[];
  #done = false;

  constructor(
    private readonly turn: TurnState,
    private readonly calls: readonly ParsedCall[],
    private readonly subscriber: Subscriber<PreparedCall[]>,
  ) {
    this.#batch = new Array(calls.length);
  }

  get closed(): boolean {
    return this.#done || this.subscriber.closed;
  }

  next(call: PreparedCall): void {
    // prepared after the turn was cancelled (by one of its own steps): not kept
    if (this.turn.cancelled()) this.complete();
    else this.#batch[call.slot] = call;
  }

  error(err: unknown): void {
    this.#done = true;
    this.subscriber.error(err);
  }

  complete(): void {
    if (this.#done) return;
    this.#done = true;
    const batch = this.#batch;
    for (const call of this.calls) batch[call.slot] ??= interrupted(call);
    this.subscriber.next(batch);
    this.subscriber.complete();
  }
}

const interrupted = (call: ParsedCall): PreparedCall => ({
  call,
  slot: call.slot,
  id: call.id,
  name: call.name,
  args: call.args,
  filled: INTERRUPTED,
});
