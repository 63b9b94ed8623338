import type { PreparedCall } from '../core/calls.js';
import type { SlotState } from '../core/turn-snapshot.js';
import type { PrepContext } from '../context/resolved-execution.js';

/**
 * A prepared call as the state a snapshot keeps of its slot: `filled` when preparation decided
 * it, else `ready` with what the gate and the dedup guard recorded of it.
 *
 * @example
 * ```ts
 * const slots = batch.map((call, slot) => preparedSlotState(call, slot, ctx));
 * ```
 */
export function preparedSlotState(call: PreparedCall, slot: number, ctx: PrepContext): SlotState {
  if (call.filled?.recorded) return { state: 'done', result: call.filled.recorded }; // kept from before a crash
  if (call.filled) {
    const { outcome, output, success } = call.filled;
    return { state: 'filled', name: call.name, args: call.args, outcome, output, success };
  }
  return {
    state: 'ready',
    name: call.name,
    args: call.args,
    approved: ctx.approved.has(slot),
    prompted: call.prompted === true,
    ...(call.argsKey !== undefined ? { argsKey: call.argsKey } : {}),
  };
}
