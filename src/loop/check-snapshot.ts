import type { ApprovalAnswer } from '../approval/approval-port.js';
import type { ApprovalRequest, ResumeDecision } from '../core/approval-request.js';
import { SnapshotMismatchError } from '../core/errors.js';
import { TURN_SNAPSHOT_VERSION, type SlotState, type TurnSnapshot } from '../core/turn-snapshot.js';
import type { EffectiveTools } from '../registry/effective-tools.js';
import type { ResolvedAgentExecution } from '../context/resolved-execution.js';
import { checkSlots } from './check-slots.js';
import { snapshotKeyOf, verifySeal } from './seal-snapshot.js';
import { snapshotShape } from './snapshot-schema.js';
import { waitingRequests } from './waiting-requests.js';

export type { ResumeDecision } from '../core/approval-request.js';

/**
 * A snapshot checked for resuming: the one call that waits and its decision (a parked turn), or
 * the calls parked with their sub-agents and the decisions for each, or none (a turn recovered
 * after a crash from its journal's last snapshot).
 */
export interface CheckedSnapshot {
  readonly snapshot: TurnSnapshot;
  /** The sequence the snapshot was sealed with (a resume seals with the next). */
  readonly sequence: number;
  readonly parked?: { readonly slot: number; readonly request: ApprovalRequest; readonly answer: ApprovalAnswer };
  /** By slot: the parked sub-agent's snapshot of each `delegated` slot, and the decisions it waits for. */
  readonly delegated?: ReadonlyMap<number, { readonly snapshot: TurnSnapshot; readonly decisions: Readonly<Record<string, ResumeDecision>> }>;
}

/** Slot states a batch may hold when no call of it awaits approval: prepared, started, finished, parked with a sub-agent. */
const RECOVERABLE = new Set<SlotState['state']>(['ready', 'filled', 'running', 'done', 'delegated']);

/**
 * Checks a parked snapshot (or a journal's last snapshot of a turn that crashed) before anything
 * of it runs, and fails closed with a `SnapshotMismatchError`. First its seal, under the agent's
 * `snapshotKey` (`SnapshotTamperedError` for a snapshot changed, unsealed or sealed with another
 * key); then an unknown version or a malformed snapshot, another agent's, another conversation's
 * than the `conversationId` the caller resumes in (when it names one), no batch in flight, no
 * approval waiting in a batch that is not fully prepared, a decision for an id that is not
 * pending (or none for one that is: the awaiting call's, or a parked sub-agent's, at any depth),
 * and the slots (`checkSlots`). A parked sub-agent's snapshot is checked when its call resumes it.
 *
 * @example
 * ```ts
 * const { snapshot, answer } = checkSnapshot(resolved, JSON.parse(stored), { [requestId]: 'yes' }, 'c1', () => turn.tools);
 * ```
 */
export function checkSnapshot(
  resolved: ResolvedAgentExecution,
  input: unknown,
  decisions: Readonly<Record<string, ResumeDecision>>,
  conversationId: string | null | undefined,
  toolsOf: (snapshot: TurnSnapshot) => EffectiveTools,
): CheckedSnapshot {
  const sequence = verifySeal(input, resolved.snapshotKey ?? snapshotKeyOf(undefined));
  const version = (input as { version?: unknown } | null)?.version;
  if (version !== TURN_SNAPSHOT_VERSION) {
    throw new SnapshotMismatchError(`Unknown turn snapshot version ${JSON.stringify(version)} (this library reads version ${TURN_SNAPSHOT_VERSION}).`);
  }
  const snapshot = snapshotShape(input);
  if (snapshot.agent !== resolved.name) {
    throw new SnapshotMismatchError(`The snapshot belongs to agent '${snapshot.agent}', not '${resolved.name}'.`);
  }
  if (conversationId !== undefined && (snapshot.conversationId ?? null) !== conversationId) {
    throw new SnapshotMismatchError('The snapshot belongs to another conversation than the one it is resumed in.');
  }
  const batch = snapshot.batch;
  if (!batch || batch.slots.length !== batch.calls.length) {
    throw new SnapshotMismatchError('The snapshot has no approval waiting: there is nothing to resume.');
  }
  const slot = batch.slots.findIndex((s) => s.state === 'awaiting-approval');
  const ids = Object.keys(decisions);
  const pendingId = slot >= 0 ? (batch.slots[slot] as Extract<SlotState, { state: 'awaiting-approval' }>).request.requestId : undefined;
  const waiting = new Set(waitingRequests(snapshot)); // the awaiting call's request, or the parked sub-agents'
  const stray = ids.filter((id) => !waiting.has(id));
  if (stray.length > 0) throw new SnapshotMismatchError(`No approval is pending with id ${stray.map((id) => `'${id}'`).join(', ')}.`);
  if (slot < 0 ? !batch.slots.every((s) => RECOVERABLE.has(s.state)) : batch.slots.some((s) => s.state === 'delegated')) {
    throw new SnapshotMismatchError('The snapshot has no approval waiting: there is nothing to resume.');
  }
  for (const id of waiting) if (!Object.hasOwn(decisions, id)) throw new SnapshotMismatchError(`No decision for the pending approval '${id}'.`);
  checkSlots(resolved, snapshot, toolsOf(snapshot));
  if (pendingId === undefined) return withDelegated(snapshot, sequence, decisions);
  const request = (batch.slots[slot] as Extract<SlotState, { state: 'awaiting-approval' }>).request;
  return { snapshot, sequence, parked: { slot, request, answer: toAnswer(decisions[pendingId]) } };
}

/** The checked snapshot, with each parked sub-agent's snapshot and the decisions it waits for (its own call checks them). */
function withDelegated(snapshot: TurnSnapshot, sequence: number, decisions: Readonly<Record<string, ResumeDecision>>): CheckedSnapshot {
  const delegated = new Map<number, { snapshot: TurnSnapshot; decisions: Record<string, ResumeDecision> }>();
  snapshot.batch!.slots.forEach((state, at) => {
    if (state.state !== 'delegated') return;
    const own: Record<string, ResumeDecision> = {};
    for (const id of waitingRequests(state.child)) own[id] = decisions[id];
    delegated.set(at, { snapshot: state.child, decisions: own });
  });
  return delegated.size > 0 ? { snapshot, sequence, delegated } : { snapshot, sequence };
}

function toAnswer(decision: ResumeDecision): ApprovalAnswer {
  if (decision === 'yes' || decision === 'no' || decision === 'always') return decision;
  if (decision !== null && typeof decision === 'object' && typeof decision.replaceWith === 'string') return { replaceWith: decision.replaceWith };
  throw new SnapshotMismatchError(`A decision must be 'yes', 'no', 'always' or { replaceWith }; got ${JSON.stringify(decision)}.`);
}
