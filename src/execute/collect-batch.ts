import { Observable, type OperatorFunction } from 'rxjs';
import { INTERRUPTED, type ParsedCall, type PreparedCall } from '../core/calls.js';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

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
  return (source) =>
    new Observable((subscriber) => {
      const batch: PreparedCall[] = calls ? new Array(calls.length) : [];
      return source.subscribe({
        next: (value) => {
          if (isTurnEvent(value)) subscriber.next(value);
          else batch[value.slot] = value;
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          fillUnprepared(batch, calls);
          subscriber.next(batch);
          subscriber.complete();
        },
      });
    });
}

function fillUnprepared(batch: PreparedCall[], calls: readonly ParsedCall[] | undefined): void {
  if (calls) {
    for (const call of calls) batch[call.slot] ??= interrupted(call);
    return;
  }
  for (let slot = 0; slot < batch.length; slot++) {
    batch[slot] ??= interrupted({ slot, id: `slot-${slot}`, name: '', args: {}, rawArguments: '{}' });
  }
}

const interrupted = (call: ParsedCall): PreparedCall => ({ call, slot: call.slot, id: call.id, name: call.name, args: call.args, filled: INTERRUPTED });
