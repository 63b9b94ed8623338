import type { ConversationScope } from '../core/conversation-scope.js';
import { SnapshotMismatchError } from '../core/errors.js';
import type { SlotState, TurnSnapshot } from '../core/turn-snapshot.js';
import { canonicalJson } from '../results/canonical-json.js';
import type { EffectiveTools } from '../registry/effective-tools.js';
import type { ResolvedAgentExecution } from '../context/resolved-execution.js';
import { approvalDigest } from './seal-snapshot.js';
import { toolFingerprint } from './tool-fingerprint.js';

type Awaiting = Extract<SlotState, { state: 'awaiting-approval' }>;

/**
 * The checks of a sealed snapshot's slots behind its seal (defence in depth): each slot about to
 * run names a tool this agent has, with the parameters it had, and arguments its schema accepts;
 * the waiting slot's request is for exactly the call it holds, bound by its digest to the name
 * and arguments the operator is shown, in the snapshot's own turn and conversation; a `ready` or
 * `running` or `delegated` slot holds the approval the current policy asks for (an operator's, in its batch).
 * The first that fails throws a `SnapshotMismatchError`.
 *
 * @example
 * ```ts
 * checkSlots(resolved, snapshot, tools);
 * ```
 */
export function checkSlots(resolved: ResolvedAgentExecution, snapshot: TurnSnapshot, tools: EffectiveTools): void {
  const batch = snapshot.batch!;
  const scope: ConversationScope = snapshot.conversationId !== undefined ? { conversationId: snapshot.conversationId, turnId: snapshot.turnId } : { turnId: snapshot.turnId };
  batch.slots.forEach((state, at) => {
    if (state.state !== 'ready' && state.state !== 'awaiting-approval' && state.state !== 'running' && state.state !== 'delegated') return;
    const tool = tools.get(state.name);
    if (!tool || tool.name !== state.name) throw new SnapshotMismatchError(`Slot ${at} calls '${state.name}', which this agent no longer has.`);
    if (batch.toolSchemas[state.name] !== toolFingerprint(tool)) throw new SnapshotMismatchError(`The parameters of '${state.name}' changed since the turn parked.`);
    const check = tool.check(state.args);
    if (!check.ok) throw new SnapshotMismatchError(`Slot ${at}'s arguments do not fit '${state.name}': ${check.message}`);
    if (state.state === 'awaiting-approval') return checkWaiting(state, at, snapshot);
    const verdict = resolved.approval?.verdict(tool, scope) ?? 'allow';
    const prompted = state.prompted === true;
    if (verdict === 'prompt' && !prompted) throw new SnapshotMismatchError(`Slot ${at} ('${state.name}') needs an approval it does not hold.`);
    if (state.approved === true && verdict !== 'approve' && !prompted) {
      throw new SnapshotMismatchError(`Slot ${at} ('${state.name}') is marked approved without an approval.`);
    }
  });
}

function checkWaiting(state: Awaiting, at: number, snapshot: TurnSnapshot): void {
  const { request } = state;
  const sameCall =
    request.toolName === state.name &&
    canonicalJson(request.arguments) === canonicalJson(state.args) &&
    state.digest === approvalDigest(request.toolName, request.arguments);
  if (!sameCall) throw new SnapshotMismatchError(`Slot ${at}'s pending approval is not for the call it holds.`);
  const otherTurn = (request.turnId !== undefined && request.turnId !== snapshot.turnId) || snapshot.ingress.turnId !== snapshot.turnId;
  if (otherTurn || request.conversationId !== snapshot.conversationId) {
    throw new SnapshotMismatchError(`Slot ${at}'s pending approval belongs to another turn or conversation.`);
  }
}
