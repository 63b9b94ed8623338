import { Observable, Subscriber, type OperatorFunction } from 'rxjs';
import { INTERRUPTED, type PreparedCall, type SlotResult } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { Stage } from '../runtime/stage.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
import { emitToolCall, emitToolResult } from './slot-events.js';
import { slotResult } from './slot-result.js';

/**
 * Makes sure every slot of a batch ends: passes events and results through, and when the
 * source completes (all calls finished, or the dispatch was cut by cancellation) closes each
 * slot that has no result yet, in slot order. An executable slot closes `interrupted` (with the
 * time it ran, when its `tool-call` event went out); a slot filled by preparation keeps its outcome. A slot
 * whose `tool-call` event did not go out gets one first (`executes: false`).
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
    new Observable<TurnEvent | SlotResult>((subscriber) => {
      const stage = new CloseUnfinished(subscriber, it, batch);
      subscriber.add(stage);
      source.subscribe(stage);
    });
}

class CloseUnfinished extends Stage<TurnEvent | SlotResult, TurnEvent | SlotResult> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = CloseUnfinished.#exemplar();

  /** One as real ones are once a call opened: `#openedAt` holds a clock reading, a fraction. */
  static #exemplar(): CloseUnfinished {
    const stage = new CloseUnfinished(new Subscriber<never>(), undefined as never, [undefined as never]);
    stage.#openedAt[0] = 0.5;
    return stage;
  }

  /** By slot: whether its result went out. Plain arrays: a typed array costs more to make than a small batch is long. */
  readonly #finished: boolean[];
  /** By slot: when its `tool-call` event went out (0: decided by preparation, no clock read; NaN: not yet). */
  readonly #openedAt: number[];
  /** By slot: the arguments its `tool-call` event showed. */
  #shown: unknown[] | undefined = undefined;

  constructor(
    out: Subscriber<TurnEvent | SlotResult>,
    private readonly it: IterationContext,
    private readonly batch: readonly PreparedCall[],
  ) {
    super(out);
    this.#finished = new Array<boolean>(batch.length).fill(false);
    this.#openedAt = new Array<number>(batch.length).fill(Number.NaN);
  }

  protected onValue(value: TurnEvent | SlotResult): void {
    if (!isTurnEvent(value)) this.#finished[value.slot] = true;
    else if (value.type === 'tool-call') {
      // a slot decided by preparation closes with its own outcome and no duration: no clock read
      this.#openedAt[value.slot] = value.executes ? this.it.resolved.clock.now() : 0;
      (this.#shown ??= [])[value.slot] = value.args;
    }
    this.out.next(value);
  }

  protected override onEnd(): void {
    const { it, out } = this;
    for (const call of this.batch) {
      if (this.#finished[call.slot] || out.closed) continue;
      const filled = call.filled ?? INTERRUPTED;
      const started = this.#openedAt[call.slot];
      const shown = Number.isNaN(started) ? emitToolCall(it, call, false, out) : this.#shown?.[call.slot];
      const durationMs = Number.isNaN(started) || call.filled ? 0 : it.resolved.clock.now() - started;
      const result = slotResult(it, call, filled.outcome, filled.success, filled.output, durationMs);
      out.next(result);
      emitToolResult(it, result, shown, out);
    }
    out.complete();
  }
}
