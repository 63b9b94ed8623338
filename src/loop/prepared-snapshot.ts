import type { PreparedCall } from '../core/calls.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, PrepContext } from '../context/resolved-execution.js';
import type { Round } from './round.js';
import { sealFor } from './seal-snapshot.js';
import { preparedSlotState } from './slot-state.js';
import { toolFingerprint } from './tool-fingerprint.js';
import { batchSnapshot, nextSnapshot } from './turn-snapshot.js';

/**
 * The snapshot of a round prepared and about to be dispatched (what a `TurnJournal` records as
 * `prepared`): its batch holds each slot `ready` or `filled`, and the fingerprint of each tool
 * about to run, so a turn resumed after a crash fails closed when a tool changed. Sealed like a
 * parked snapshot (`sealFor`).
 *
 * @example
 * ```ts
 * journal.prepared(preparedSnapshot(it, round, batch, ctx, usage));
 * ```
 */
export function preparedSnapshot(
  it: IterationContext,
  round: Round,
  batch: readonly PreparedCall[],
  ctx: PrepContext,
  usage: TurnSnapshot['usage'],
): TurnSnapshot {
  const toolSchemas: Record<string, string> = {};
  for (const call of batch) if (call.tool && !call.filled) toolSchemas[call.tool.name] = toolFingerprint(call.tool);
  const slots = batch.map((call, slot) => preparedSlotState(call, slot, ctx));
  return sealFor(it, nextSnapshot(it, { usage, batch: batchSnapshot(it, round, slots, ctx, toolSchemas) }));
}
