import type { Observable, OperatorFunction, Subscriber, TeardownLogic } from 'rxjs';
import { INTERRUPTED, type ParsedCall, type PreparedCall } from '../core/calls.js';
import type { TurnEvent } from '../core/events.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';

/** `isTurnEvent`, as this stage's own function (see isTurnEvent): this stage sees a few shapes. */
const isEvent = (value: object): value is TurnEvent => (value as { readonly type?: unknown }).type !== undefined;

/**
 * Collects a batch's prepared calls by slot and emits the whole batch once preparation
 * completes; events pass straight through. A slot that was not prepared by then (the turn was
 * cancelled during a prompt, or a step dropped the call) is filled `interrupted`: it never runs.
 * Without `calls`, the slots are 0 to the highest slot seen.
 *
 * ```
 * prepared: -q-a--b|         q: an event
 * result:   -q-----([a, b]|)
 * ```
 * @example
 * ```ts
 * from(calls).pipe(prepareCalls(it), takeUntil(cancel$), collectBatch(calls));
 * ```
 * @param calls The batch's parsed calls (the slots to fill).
 * @return Events, then the prepared batch indexed by slot.
 */
export function collectBatch(calls?: readonly ParsedCall[]): OperatorFunction<TurnEvent | PreparedCall, TurnEvent | PreparedCall[]> {
  return (source) => new StageObservable(openBatch, source, calls, undefined);
}

function openBatch(
  subscriber: Subscriber<TurnEvent | PreparedCall[]>,
  source: Observable<TurnEvent | PreparedCall>,
  calls: readonly ParsedCall[] | undefined,
): TeardownLogic {
  // the stage's state in one object, its callbacks shared: no closures per subscription
  const state: BatchState = { subscriber, calls, batch: calls ? new Array(calls.length) : [] };
  subscribeStage(source, subscriber, batchNext, batchComplete, undefined, state);
}

interface BatchState {
  readonly subscriber: Subscriber<TurnEvent | PreparedCall[]>;
  readonly calls: readonly ParsedCall[] | undefined;
  readonly batch: PreparedCall[];
}

function batchNext(this: BatchState, value: TurnEvent | PreparedCall): void {
  if (isEvent(value)) this.subscriber.next(value);
  else this.batch[value.slot] = value;
}

function batchComplete(this: BatchState): void {
  const { calls, batch, subscriber } = this;
  if (calls) {
    for (const call of calls) batch[call.slot] ??= interrupted(call);
  } else {
    for (let slot = 0; slot < batch.length; slot++) {
      if (batch[slot] === undefined) batch[slot] = interrupted({ slot, id: `slot-${slot}`, name: '', args: {}, rawArguments: '{}' });
    }
  }
  subscriber.next(batch);
  subscriber.complete();
}

const interrupted = (call: ParsedCall): PreparedCall => ({ call, slot: call.slot, id: call.id, name: call.name, args: call.args, filled: INTERRUPTED });
