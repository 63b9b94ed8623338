import { from, merge, type Observable, switchMap } from 'rxjs';
import type { Agent } from '../agent/create-agent.js';
import type { TurnEvent } from '../core/events.js';
import { turnInputWith, type TurnInput } from '../core/turn-input.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { SnapshotMismatchError, SnapshotReplayedError } from '../core/errors.js';
import type { ResumeDecision } from '../loop/check-snapshot.js';
import { snapshotKeyOf, verifySeal } from '../loop/seal-snapshot.js';
import { holdTurn } from './hold-turn.js';
import { persistTurn } from './persist-turn.js';
import { storeJournal } from './store-journal.js';
import { waitingFor } from './turn-claims.js';
import type { StoredDecision, StoredInput, StoredTurn, TurnStore } from './turn-store.js';

/**
 * Runs a turn this instance claimed: with the caller's signal and steering, if any, and the
 * turn's decisions when the claim read them (read again only if they miss one the snapshot waits for).
 */
export type RunClaimed = (turn: StoredTurn, signal?: AbortSignal, steering?: TurnInput['steering'], decided?: readonly StoredDecision[]) => Observable<TurnEvent>;

/**
 * How a durable agent runs the turns it claimed: under the claim's lease, cancelled and steered
 * from any instance (`holdTurn`); a queued turn from its stored input, a parked or recovered one
 * from its snapshot with its stored decisions, each with the conversation's history, allow-list
 * and activated tools from the store; its journal and events in the store, fenced by the claim's
 * attempt (`storeJournal`, `persistTurn`).
 *
 * @example
 * ```ts
 * const runClaimed = claimedRuns(agent, store, { leaseMs: 30_000, heartbeatMs: 10_000 });
 * const claimed = await store.claimTurn(turnId, owner, ['queued'], { leaseMs: 30_000 });
 * if (claimed) runClaimed(claimed).subscribe(render);
 * ```
 */
export function claimedRuns(agent: Agent, store: TurnStore, lease: { readonly leaseMs: number; readonly heartbeatMs: number }): RunClaimed {
  /** The turn's input with the conversation's history, allow-list and activated tools from the store (one read). */
  const prepare = async (input: StoredInput, conversationId: string | null): Promise<TurnInput> => {
    if (conversationId === null) return input;
    const state = await store.conversationState(conversationId, { history: input.history === undefined });
    const approval = agent.resolved.approval as { allowInConversation?: (tool: string, scope: string) => void } | undefined;
    for (const tool of state.allowList) approval?.allowInConversation?.(tool, conversationId);
    const activated = agent.resolved.activations.forScope({ conversationId });
    for (const name of state.activations) {
      const tool = agent.resolved.toolScope.deferred.find((t) => t.name === name);
      if (tool) activated.activate(tool);
    }
    return turnInputWith(input, { conversationId, history: input.history ?? state.history ?? [] });
  };

  /**
   * A parked snapshot resumes once across instances: its seal is checked, it must be the row's
   * own turn, then its sequence is claimed in the store (a journal's checkpoint, recovered after
   * a crash, is fenced by `attempt`).
   */
  const claimResume = async (turnId: string, snapshot: TurnSnapshot): Promise<void> => {
    if (snapshot.turnId !== turnId) throw new SnapshotMismatchError(`The stored snapshot is of turn '${snapshot.turnId}', not of '${turnId}'.`);
    if (!snapshot.batch?.slots.some((s) => s.state === 'awaiting-approval' || s.state === 'delegated')) return;
    const sequence = verifySeal(snapshot, agent.resolved.snapshotKey ?? snapshotKeyOf(undefined));
    if (!(await store.claimSnapshot(turnId, sequence))) throw new SnapshotReplayedError(turnId, sequence);
  };

  /** The turn's decisions: those read for its claim when they answer every request its snapshot waits for (a decision never changes once recorded), else the store's. */
  const decisionsOf = async (turnId: string, snapshot: TurnSnapshot, decided: readonly StoredDecision[] | undefined): Promise<readonly StoredDecision[]> => {
    const known = new Set(decided?.map((d) => d.requestId));
    return decided && [...waitingFor(snapshot)].every((id) => known.has(id)) ? decided : store.decisions(turnId);
  };

  return (turn, signal, steering, decided) =>
    holdTurn(store, turn, { ...lease, signal }, (held) => {
      const { conversationId } = turn;
      const atEnd = async (): Promise<void> => {
        if (conversationId !== null) await store.activate(conversationId, agent.resolved.activations.forScope({ conversationId }).names());
      };
      const target = { store, turnId: turn.turnId, conversationId, attempt: turn.attempt, atEnd };
      const journal = storeJournal(store, turn.turnId, turn.attempt, agent.resolved.snapshotKey);
      const steer = steering === undefined ? held.steering : merge(held.steering, from(steering));
      const snapshot = turn.snapshot;
      if (snapshot?.batch) {
        return from(claimResume(turn.turnId, snapshot)).pipe(
          switchMap(() => decisionsOf(turn.turnId, snapshot, decided)),
          switchMap((all) => {
            // cancelled before it resumed: a request without a decision is never asked (the resume interrupts every slot)
            const decisions = decisionsFor(snapshot, all, held.signal.aborted);
            const decidedBy = all.find((d) => Object.hasOwn(decisions, d.requestId))?.decidedBy ?? 'resume';
            // the row says whose turn it is: a snapshot of another conversation is refused, never resumed here
            const resume = { decisions, decidedBy, journal, signal: held.signal, steering: steer, conversationId };
            return from(prepare(turn.input, conversationId)).pipe(switchMap(() => agent.resume(snapshot, resume)));
          }),
          persistTurn(target), // a refused snapshot fails the turn
        );
      }
      return from(prepare(turn.input, conversationId)).pipe(
        switchMap((input) => agent.run(turnInputWith(input, { signal: held.signal, journal, steering: steer }))),
        persistTurn(target),
      );
    });
}

/** The stored decisions the snapshot waits for, keyed by request id; `cancelled`: every one missing as 'no' (never applied). */
function decisionsFor(snapshot: TurnSnapshot, all: readonly StoredDecision[], cancelled: boolean): Record<string, ResumeDecision> {
  const waiting = waitingFor(snapshot);
  const decisions: Record<string, ResumeDecision> = {};
  if (cancelled) for (const id of waiting) decisions[id] = 'no';
  for (const d of all) if (waiting.has(d.requestId)) decisions[d.requestId] = d.decision;
  return decisions;
}
