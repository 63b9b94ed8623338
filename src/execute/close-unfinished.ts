import type { Observable, OperatorFunction, Subscriber, TeardownLogic } from 'rxjs';
import { INTERRUPTED, type PreparedCall, type SlotResult } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
import { emitToolCall, emitToolResult } from './slot-events.js';
import { slotResult } from './slot-result.js';

/** `isTurnEvent`, as this stage's own function (see isTurnEvent): this stage sees a few shapes. */
const isEvent = (value: object): value is TurnEvent => (value as { readonly type?: unknown }).type !== undefined;

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
  return (source) => new StageObservable(openUnfinished, source, it, batch);
}

function openUnfinished(
  subscriber: Subscriber<TurnEvent | SlotResult>,
  source: Observable<TurnEvent | SlotResult>,
  it: IterationContext,
  batch: readonly PreparedCall[],
): TeardownLogic {
  // the stage's state in one object, its callbacks shared: no closures per subscription
  const state: Unfinished = { subscriber, it, batch, slots: new Array<number | undefined>(batch.length), open: undefined };
  subscribeStage(source, subscriber, passAndMark, closeRest, undefined, state);
}

interface Unfinished {
  readonly subscriber: Subscriber<TurnEvent | SlotResult>;
  readonly it: IterationContext;
  readonly batch: readonly PreparedCall[];
  /**
   * Each slot's clock reading when its `tool-call` event went out (0 for a slot decided by
   * preparation), then `FINISHED` once it has a result; a hole before either. One plain array,
   * not two typed arrays: a stage is built per iteration.
   */
  readonly slots: (number | undefined)[];
  /** Each opened slot's arguments as its `tool-call` event showed them. */
  open: unknown[] | undefined;
}

/** What `slots` holds for a slot with a result: no clock reads it. */
const FINISHED = Number.NEGATIVE_INFINITY;

function passAndMark(this: Unfinished, value: TurnEvent | SlotResult): void {
  if (!isEvent(value)) this.slots[value.slot] = FINISHED;
  else if (value.type === 'tool-call') {
    // a slot decided by preparation closes with its own outcome and no duration: no clock read
    this.slots[value.slot] = value.executes ? this.it.resolved.clock.now() : 0;
    (this.open ??= [])[value.slot] = value.args;
  }
  this.subscriber.next(value);
}

function closeRest(this: Unfinished): void {
  const { subscriber, it, slots } = this;
  for (const call of this.batch) {
    const started = slots[call.slot];
    if (started === FINISHED || subscriber.closed) continue;
    const filled = call.filled ?? INTERRUPTED;
    let shown: unknown;
    if (started === undefined) {
      shown = emitToolCall(it, call, false, subscriber);
    } else {
      shown = this.open?.[call.slot];
    }
    const durationMs = started === undefined || call.filled ? 0 : it.resolved.clock.now() - started;
    const result = slotResult(it, call, filled.outcome, filled.success, filled.output, durationMs);
    subscriber.next(result);
    emitToolResult(it, result, shown, subscriber);
  }
  subscriber.complete();
}
