import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { waitingRequests } from '../loop/waiting-requests.js';
import { ConversationBusyError } from './durable-errors.js';
import type { StoredDecision, StoredTurn, TurnStore } from './turn-store.js';

/** Who claims: the instance's owner name, its agent's name, and the lease each claim gives. */
export interface Claimant {
  readonly owner: string;
  readonly agent: string;
  readonly leaseMs: number;
}

/** How `continue` takes over a running turn: not at all, whatever its lease (`true`), or once its lease ran out (`'expired'`). */
export type TakeOver = boolean | 'expired';

/** A turn claimed, and the decisions read to claim it (a parked turn's: every request it waited for has one). */
export interface Claimed {
  readonly turn: StoredTurn;
  readonly decisions?: readonly StoredDecision[];
}

/**
 * The claims of one durable agent: `claimFor` claims a stored turn when there is something to do
 * with it here — never another agent's turn (a job on a shared or forged queue), a parked one
 * only once every request it waits for (its row's and its snapshot's) is decided, and a running
 * one only when taken over. Each claim gives the owner a lease of `leaseMs`. A parked turn's claim
 * comes with the decisions it was checked against, so its resume need not read them again.
 *
 * @example
 * ```ts
 * const { claimFor } = turnClaims(store, { owner, agent: 'ops', leaseMs: 30_000 });
 * const claimed = await claimFor(turn, 'expired', true); // { turn, decisions? } or undefined
 * ```
 */
export function turnClaims(store: TurnStore, claimant: Claimant) {
  const { owner, agent, leaseMs } = claimant;

  async function claimFor(turn: StoredTurn, takeOver: TakeOver, exclusive: boolean): Promise<Claimed | undefined> {
    if (turn.agent !== agent) return undefined;
    const claimed = (found: StoredTurn | undefined, decisions?: readonly StoredDecision[]): Claimed | undefined => found && { turn: found, ...(decisions ? { decisions } : {}) };
    if (turn.status === 'queued') return claimed(await claimStart(turn, 'queued', exclusive));
    if (turn.status === 'running') return takeOver === false ? undefined : claimed(await store.claimTurn(turn.turnId, owner, ['running'], { expired: takeOver === 'expired', leaseMs }));
    if (turn.status !== 'parked') return undefined;
    const decisions = await store.decisions(turn.turnId);
    const decided = new Set(decisions.map((d) => d.requestId));
    const waiting = [...turn.pending.map((r) => r.requestId), ...waitingFor(turn.snapshot)];
    if (!waiting.every((id) => decided.has(id))) return undefined;
    return claimed(await claimStart(turn, 'parked', exclusive), decisions);
  }

  /** Claims a queued or parked turn; `exclusive`: only when its conversation has nothing running and nothing queued before it. */
  async function claimStart(turn: StoredTurn, status: 'queued' | 'parked', exclusive: boolean): Promise<StoredTurn | undefined> {
    const { conversationId } = turn;
    if (!exclusive || conversationId === null) return store.claimTurn(turn.turnId, owner, [status], { leaseMs });
    // a queued turn in submit order: an earlier one of its conversation goes first
    const claimed = await store.claimTurn(turn.turnId, owner, [status], { alone: true, inOrder: true, leaseMs });
    if (claimed) return claimed;
    // refused for another turn running (or queued before it), not taken
    if ((await store.getTurn(turn.turnId))?.status === status) throw new ConversationBusyError(turn.turnId, conversationId);
    return undefined;
  }

  return { claimFor };
}

/**
 * Of some turns of a conversation, the queued one that starts next: the first submitted (by the
 * `updatedAt` its submitting instance wrote; a queued row is not written again before its claim),
 * then by turn id — the order a claim `inOrder` keeps.
 *
 * @example
 * ```ts
 * const open = await store.listTurns({ conversationId: 'c1', status: ['running', 'queued'] });
 * const next = open.some((t) => t.status === 'running') ? undefined : firstQueued(open);
 * ```
 */
export function firstQueued(turns: readonly StoredTurn[]): StoredTurn | undefined {
  const queued = turns.filter((t) => t.status === 'queued');
  return queued.sort((a, b) => a.updatedAt - b.updatedAt || (a.turnId < b.turnId ? -1 : a.turnId > b.turnId ? 1 : 0))[0];
}

/**
 * The request ids a snapshot waits for: its own call's, or its parked sub-agents' (`waitingRequests`).
 *
 * @example
 * ```ts
 * const missing = [...waitingFor(turn.snapshot)].filter((id) => !decided.has(id));
 * ```
 */
export function waitingFor(snapshot: TurnSnapshot | null): Set<string> {
  return new Set(waitingRequests(snapshot));
}
