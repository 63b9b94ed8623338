import type { ApprovalAnswer } from '../approval/approval-port.js';
import type { ApprovalRequest } from '../core/approval-request.js';
import { SnapshotMismatchError } from '../core/errors.js';
import { TURN_SNAPSHOT_VERSION, type SlotState, type TurnSnapshot } from '../core/turn-snapshot.js';
import type { EffectiveTools, ResolvedAgentExecution } from '../runtime/resolved-execution.js';
import { turnSnapshotSchema } from './snapshot-schema.js';
import { toolFingerprint } from './tool-fingerprint.js';

/** A decision for a parked approval, keyed by its `requestId`. */
export type ResumeDecision = 'yes' | 'no' | 'always' | { readonly replaceWith: string };

/** A snapshot checked for resuming, with the one call that waits and its decision. */
export interface CheckedSnapshot {
  readonly snapshot: TurnSnapshot;
  readonly slot: number;
  readonly request: ApprovalRequest;
  readonly answer: ApprovalAnswer;
}

/**
 * Checks a parked snapshot before anything of it runs, and fails closed with a
 * `SnapshotMismatchError`: an unknown version or a malformed snapshot, another agent's, no
 * approval waiting, a decision for an id that is not pending (or none for the one that is), or a
 * prepared call whose tool this agent no longer has or whose parameter schema changed.
 *
 * @example
 * ```ts
 * const { snapshot, answer } = checkSnapshot(resolved, JSON.parse(stored), { [requestId]: 'yes' }, () => turn.tools);
 * ```
 */
export function checkSnapshot(
  resolved: ResolvedAgentExecution,
  input: unknown,
  decisions: Readonly<Record<string, ResumeDecision>>,
  toolsOf: (snapshot: TurnSnapshot) => EffectiveTools,
): CheckedSnapshot {
  const version = (input as { version?: unknown } | null)?.version;
  if (version !== TURN_SNAPSHOT_VERSION) {
    throw new SnapshotMismatchError(`Unknown turn snapshot version ${JSON.stringify(version)} (this library reads version ${TURN_SNAPSHOT_VERSION}).`);
  }
  const parsed = turnSnapshotSchema.safeParse(input);
  if (!parsed.success) throw new SnapshotMismatchError(`Malformed turn snapshot: ${parsed.error.issues.map(describeIssue).join('; ')}.`);
  const snapshot = parsed.data as TurnSnapshot;
  if (snapshot.agent !== resolved.name) {
    throw new SnapshotMismatchError(`The snapshot belongs to agent '${snapshot.agent}', not '${resolved.name}'.`);
  }
  const batch = snapshot.batch;
  const slot = batch?.slots.findIndex((s) => s.state === 'awaiting-approval') ?? -1;
  if (!batch || slot < 0 || batch.slots.length !== batch.calls.length) {
    throw new SnapshotMismatchError('The snapshot has no approval waiting: there is nothing to resume.');
  }
  const waiting = batch.slots[slot] as Extract<SlotState, { state: 'awaiting-approval' }>;
  const tools = toolsOf(snapshot);
  const ids = Object.keys(decisions);
  const stray = ids.filter((id) => id !== waiting.request.requestId);
  if (stray.length > 0) throw new SnapshotMismatchError(`No approval is pending with id ${stray.map((id) => `'${id}'`).join(', ')}.`);
  if (!Object.hasOwn(decisions, waiting.request.requestId)) {
    throw new SnapshotMismatchError(`No decision for the pending approval '${waiting.request.requestId}'.`);
  }
  batch.slots.forEach((state, at) => {
    if (state.state !== 'ready' && state.state !== 'awaiting-approval') return;
    const tool = tools.get(state.name);
    const recorded = batch.toolSchemas[state.name];
    if (!tool || tool.name !== state.name) throw new SnapshotMismatchError(`Slot ${at} calls '${state.name}', which this agent no longer has.`);
    if (recorded !== toolFingerprint(tool)) throw new SnapshotMismatchError(`The parameters of '${state.name}' changed since the turn parked.`);
  });
  return { snapshot, slot, request: waiting.request, answer: toAnswer(decisions[waiting.request.requestId]) };
}

function toAnswer(decision: ResumeDecision): ApprovalAnswer {
  if (decision === 'yes' || decision === 'no' || decision === 'always') return decision;
  if (decision !== null && typeof decision === 'object' && typeof decision.replaceWith === 'string') return { replaceWith: decision.replaceWith };
  throw new SnapshotMismatchError(`A decision must be 'yes', 'no', 'always' or { replaceWith }; got ${JSON.stringify(decision)}.`);
}

const describeIssue = (issue: { readonly path: readonly PropertyKey[]; readonly message: string }): string =>
  `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`;
