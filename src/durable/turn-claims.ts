import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { waitingRequests } from '../loop/waiting-requests.js';
import { ConversationBusyError } from './durable-errors.js';
import type { StoredTurn, TurnStore } from './turn-store.js';

/** Who claims: the instance's owner name, its agent's name, and the lease each claim gives. */
export interface Claimant {
  readonly owner: string;
  readonly agent: string;
  readonly leaseMs: number;
}

/** How `continue` takes over a running turn: not at all, whatever its lease (`true`), or once its lease ran out (`'expired'`). */
export type TakeOver = boolean | 'expired';

/**
 * The claims of one durable agent: `claimFor` claims a stored turn when there is something to do
 * with it here — never another agent's turn (a job on a shared or forged queue), a parked one
 * only once every request it waits for (its row's and its snapshot's) is decided, and a running
 * one only when taken over. Each claim gives the owner a lease of `leaseMs`.
 *
 * @example
 * ```ts
 * const { claimFor } = turnClaims(store, { owner, agent: 'ops', leaseMs: 30_000 });
 * const claimed = await claimFor(turn, 'expired', true);
 * ```
 */
export function turnClaims(store: TurnStore, claimant: Claimant) {
  const { owner, agent, leaseMs } = claimant;

  async function claimFor(turn: StoredTurn, takeOver: TakeOver, exclusive: boolean): Promise<StoredTurn | undefined> {
    if (turn.agent !== agent) return undefined;
    if (turn.status === 'queued') return claimStart(turn, 'queued', exclusive);
    if (turn.status === 'running') return takeOver === false ? undefined : store.claimTurn(turn.turnId, owner, ['running'], { expired: takeOver === 'expired', leaseMs });
    if (turn.status !== 'parked') return undefined;
    const decided = new Set((await store.decisions(turn.turnId)).map((d) => d.requestId));
    const waiting = [...turn.pending.map((r) => r.requestId), ...waitingFor(turn.snapshot)];
    if (!waiting.every((id) => decided.has(id))) return undefined;
    return claimStart(turn, 'parked', exclusive);
  }

  /** Claims a queued or parked turn; `exclusive`: only when its conversation has nothing running and nothing queued before it. */
  async function claimStart(turn: StoredTurn, status: 'queued' | 'parked', exclusive: boolean): Promise<StoredTurn | undefined> {
    const { conversationId } = turn;
    if (!exclusive || conversationId === null) return store.claimTurn(turn.turnId, owner, [status], { leaseMs });
    const busy = new ConversationBusyError(turn.turnId, conversationId);
    const next = status === 'queued' ? await nextQueued(store, conversationId) : undefined;
    if (next && next.turnId !== turn.turnId) throw busy; // an earlier one goes first
    const claimed = await store.claimTurn(turn.turnId, owner, [status], { alone: true, leaseMs });
    if (claimed) return claimed;
    if ((await store.getTurn(turn.turnId))?.status === status) throw busy; // refused for another turn running, not taken
    return undefined;
  }

  return { claimFor };
}

/**
 * A conversation's queued turn that starts next: the first submitted (by the `updatedAt` its
 * submitting instance wrote; a queued row is not written again before its claim), then by turn id.
 *
 * @example
 * ```ts
 * const next = await nextQueued(store, 'c1');
 * if (next) await queue.enqueue(next);
 * ```
 */
export async function nextQueued(store: TurnStore, conversationId: string): Promise<StoredTurn | undefined> {
  const queued = await store.listTurns({ conversationId, status: 'queued' });
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
