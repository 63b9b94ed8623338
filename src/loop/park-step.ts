import type { PreparedCall } from '../core/calls.js';
import type { SlotState, TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext, PrepContext } from '../context/resolved-execution.js';
import type { IterationStep } from './iteration-step.js';
import type { Round } from './round.js';
import { scrubValue } from '../results/scrub-value.js';
import { approvalDigest, sealFor } from './seal-snapshot.js';
import { preparedSlotState } from './slot-state.js';
import { snapshotShape } from './snapshot-schema.js';
import { toolFingerprint } from './tool-fingerprint.js';
import { batchSnapshot, nextSnapshot } from './turn-snapshot.js';

/**
 * Parks the turn at the call that waits for an approval: the done step, reason 'paused', with a
 * snapshot whose batch holds every slot's state — the slots before it prepared (ready, or filled
 * by preparation), the waiting one as the gate left it, the ones after it not prepared yet — and
 * the request waiting. Nothing of the batch has run; the round is not in history yet. The
 * snapshot is sealed (`sealFor`), the waiting slot bound to a digest of the name and arguments
 * the operator is shown; `pending` shows those arguments scrubbed (the raw ones stay in the snapshot).
 * The snapshot is checked with the schema resume uses (`snapshotShape`): one that could not
 * resume fails the turn here, with a `SnapshotMismatchError`, instead of parking.
 *
 * @example
 * ```ts
 * if (batch.some((call) => call.paused)) return of(parkStep(it, round, batch, ctx, usage));
 * ```
 */
export function parkStep(
  it: IterationContext,
  round: Round,
  batch: readonly PreparedCall[],
  ctx: PrepContext,
  usage: TurnSnapshot['usage'],
): IterationStep {
  const at = batch.findIndex((call) => call.paused !== undefined);
  const parked = batch[at];
  const toolSchemas: Record<string, string> = {};
  const slots = batch.map((call, slot): SlotState => {
    if (slot > at) return { state: 'pending' };
    if (call.tool) toolSchemas[call.tool.name] = toolFingerprint(call.tool);
    if (slot === at) {
      const signature = ctx.promptSignatureBySlot.get(slot);
      const request = parked.paused!;
      const digest = approvalDigest(request.toolName, request.arguments);
      return { state: 'awaiting-approval', request, name: call.name, args: call.args, digest, ...(signature !== undefined ? { signature } : {}) };
    }
    return preparedSlotState(call, slot, ctx);
  });
  const inFlight = batchSnapshot(it, round, slots, ctx, toolSchemas);
  const request = parked.paused!;
  const shown = { ...request, arguments: scrubValue(request.arguments) };
  // checked as resume checks it: a turn never parks with a snapshot that cannot resume
  const snapshot = sealFor(it, nextSnapshot(it, { usage, batch: inFlight }));
  snapshotShape(snapshot);
  return { kind: 'done', snapshot, text: '', reason: 'paused', pending: [shown] };
}
