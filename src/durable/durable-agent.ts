import { randomUUID } from 'node:crypto';
import { defer, EMPTY, from, lastValueFrom, type Observable, switchMap } from 'rxjs';
import type { Agent } from '../agent/create-agent.js';
import type { TurnEvent } from '../core/events.js';
import type { TurnInput } from '../core/turn-input.js';
import { ConfigurationError, TurnInputError } from '../core/errors.js';
import type { ResumeDecision } from '../loop/check-snapshot.js';
import { DurableStoreError } from './durable-errors.js';
import { checkId, idProblem, isStoreId } from './durable-ids.js';
import { claimedRuns } from './run-claimed.js';
import { turnClaims, type TakeOver } from './turn-claims.js';
import type { StoredDecision, StoredInput, StoredTurn, TurnStatus, TurnStore } from './turn-store.js';

/** Options of `durableAgent`. */
export interface DurableAgentOptions {
  readonly store: TurnStore;
  /** This instance's name in the store's `owner` column. Default a random id. */
  readonly owner?: string;
  /** Called when a turn is ready to run here or elsewhere: submitted, or its last pending decision arrived (workers enqueue it). */
  readonly onReady?: (turn: StoredTurn) => void | Promise<void>;
  /**
   * How long a worker's hold on a running turn lasts without a renewal (ms): a worker that died
   * loses its turns this long after its last heartbeat, and only then may another take them over
   * (`continue(id, { takeOver: 'expired' })`; `turnQueue`'s workers sweep for them). Default 30,000.
   */
  readonly leaseMs?: number;
  /** How often a live worker renews the lease of each turn it runs (ms), below `leaseMs`. Default `leaseMs / 3`. */
  readonly heartbeatMs?: number;
}

/** What `decide` did with a decision. */
export type DecisionOutcome =
  | { readonly status: 'accepted'; readonly decision: StoredDecision; /** every pending request of the turn is decided */ readonly ready: boolean }
  | { readonly status: 'taken'; readonly winner: StoredDecision }
  | { readonly status: 'not-pending' }
  /** The decision is not one, or an id (turn, request, decider) is not: not a string, empty, over 256 characters, a NUL, … (`idProblem`). */
  | { readonly status: 'invalid' };

/**
 * What `cancel` did: `cancelled` (the turn was queued or parked: it ended cancelled here without
 * running), `requested` (it runs on some worker, which stops it within moments), `ended` (it had
 * ended already, or there is no such turn) or `invalid` (an id that is not one).
 */
export type CancelOutcome = { readonly status: 'cancelled' | 'requested' | 'ended' | 'invalid' };

/**
 * What `steer` did: `sent` (recorded for the turn, which was `turnStatus`: a running turn's worker
 * adds it at its next iteration; a queued or parked turn gets it when it starts or resumes),
 * `ended` (nothing recorded: the turn ended, or there is no such turn) or `invalid`.
 */
export type SteerOutcome = { readonly status: 'sent'; readonly turnStatus: TurnStatus } | { readonly status: 'ended' | 'invalid' };

/** An agent whose turns live in a `TurnStore`: they park, survive restarts and crashes, and go on in any process. */
export interface DurableAgent {
  readonly agent: Agent;
  readonly store: TurnStore;
  /** The lease each of its claims gives (ms). */
  readonly leaseMs: number;
  /**
   * Runs a turn here, kept in the store as it goes (its id: `input.ingress.turnId`, else a new one).
   * A turn or conversation id that is not an id (`idProblem`) fails it with a `DurableStoreError`,
   * before the store is written; so does `submit` (rejects) and `continue` (for its turn id).
   */
  run(input: TurnInput): Observable<TurnEvent>;
  /** Records a turn to run on a worker (`onReady`); resolves with its id. */
  submit(input: TurnInput): Promise<string>;
  /** Records an operator's decision for a parked turn's pending request: the first decision wins on every instance. */
  decide(turnId: string, requestId: string, decision: ResumeDecision, decidedBy?: string): Promise<DecisionOutcome>;
  /**
   * Goes on with a stored turn: starts a queued one, resumes a parked one whose decisions are all
   * in, or recovers a running one from its journal — with `takeOver: true` whatever its lease (a
   * process that knows the previous owner died), with `takeOver: 'expired'` once its lease ran out. Empty when there is nothing to do here (another instance claimed it, a
   * decision is missing, or the turn is another agent's). A snapshot that is not the row's own —
   * another turn's, or another conversation's — fails the turn with a `SnapshotMismatchError`.
   * With `exclusive` (the queue's workers), it starts or resumes the turn only while no other turn
   * of its conversation runs (the store's claim `alone`), and a queued turn only after those of its
   * conversation queued before it; else it errors with `ConversationBusyError` and changes nothing.
   * `onTurn` is called with the turn as the store had it before the claim (the queue's workers
   * learn its conversation from it without reading the row again).
   */
  continue(turnId: string, options?: { signal?: AbortSignal; takeOver?: TakeOver; exclusive?: boolean; onTurn?: (turn: StoredTurn) => void }): Observable<TurnEvent>;
  /**
   * Cancels a turn from any instance: recorded in the store, then the worker that runs it aborts
   * it (finished results kept, unfinished slots `interrupted`, `done` says 'cancelled'); a queued
   * or parked turn ends cancelled here, without running anything.
   */
  cancel(turnId: string, cancelledBy?: string): Promise<CancelOutcome>;
  /** Sends a user message to a turn from any instance: it joins history at the turn's next iteration, on whichever worker runs it. */
  steer(turnId: string, message: string, sentBy?: string): Promise<SteerOutcome>;
}

/**
 * Makes an agent's turns durable in a store. A turn started with `run` or `submit` is recorded
 * with its input; its journal checkpoints each prepared round and each slot; its events go to
 * the store's log; at an approval (with `pauseForApproval()`) it parks with its snapshot, and
 * `decide` + `continue` resume it in any process. After a crash, `continue(id, { takeOver: true })`
 * closes the call that was running `interrupted` (or runs it again when its tool is
 * `idempotent`), keeps every finished result, and goes on.
 *
 * @example
 * ```ts
 * const durable = durableAgent(agent, { store: await postgresTurnStore(pool) });
 * const done = await lastValueFrom(durable.run({ message: 'delete notes.txt', conversationId: 'c1' }));
 * // later, on any instance:
 * await durable.decide(done.snapshot!.turnId, done.pending![0].requestId, 'yes', 'alice');
 * durable.continue(done.snapshot!.turnId).subscribe(render);
 * ```
 */
export function durableAgent(agent: Agent, options: DurableAgentOptions): DurableAgent {
  const { store } = options;
  const owner = options.owner ?? randomUUID();
  const name = agent.resolved.name;
  for (const [value, what] of [[owner, 'owner'], [name, "agent's name"]] as const) {
    const problem = idProblem(value);
    if (problem !== undefined) throw new ConfigurationError(`durableAgent: the ${what} ${problem}; the store keeps it as an id.`);
  }
  const { leaseMs, heartbeatMs } = leaseOf(options);
  const { claimFor } = turnClaims(store, { owner, agent: name, leaseMs });

  /** The turn's input as the store keeps it; its ids checked first (a `DurableStoreError` names the one that is not an id); never an output schema (`TurnInputError`). */
  const stored = (input: TurnInput): StoredInput => {
    if (input.output !== undefined) throw new TurnInputError('durableAgent cannot store an output schema (code, not data): run structured turns with agent.run or agent.complete.');
    const turnId = checkId(input.ingress?.turnId ?? agent.resolved.ids(), 'turn id');
    const conversationId: unknown = input.conversationId;
    if (conversationId !== undefined && conversationId !== null && conversationId !== '') checkId(conversationId, 'conversation id');
    return {
      message: input.message,
      ...(input.history ? { history: input.history } : {}),
      ...(input.tools ? { tools: input.tools } : {}),
      ...(input.memory ? { memory: input.memory } : {}),
      ingress: { ...(input.ingress ?? { channel: 'cli' }), turnId },
    };
  };

  const runClaimed = claimedRuns(agent, store, { leaseMs, heartbeatMs });

  return {
    agent,
    store,
    leaseMs,
    run: (input) =>
      from(
        (async () => {
          const data = stored(input);
          return store.createTurn({ turnId: data.ingress.turnId, agent: name, input: data, status: 'running', owner, leaseMs, ...(input.conversationId ? { conversationId: input.conversationId } : {}) });
        })(),
      ).pipe(switchMap((turn) => runClaimed(turn, input.signal, input.steering))),
    async submit(input) {
      const data = stored(input);
      const turn = await store.createTurn({ turnId: data.ingress.turnId, agent: name, input: data, status: 'queued', ...(input.conversationId ? { conversationId: input.conversationId } : {}) });
      await options.onReady?.(turn);
      return turn.turnId;
    },
    async decide(turnId, requestId, decision, decidedBy = 'operator') {
      if (!isDecision(decision) || !isStoreId(turnId) || !isStoreId(requestId) || !isStoreId(decidedBy)) return { status: 'invalid' };
      const turn = await store.getTurn(turnId);
      if (!turn || !turn.pending.some((r) => r.requestId === requestId)) return { status: 'not-pending' };
      const result = await store.decide({ turnId, requestId, decision, decidedBy });
      if (!result.accepted) return { status: 'taken', winner: result.winner };
      // this decision is recorded: only the turn's other pending requests need a look
      const others = turn.pending.filter((r) => r.requestId !== requestId);
      const decided = new Set(others.length === 0 ? [] : (await store.decisions(turnId)).map((d) => d.requestId));
      const ready = turn.status === 'parked' && others.every((r) => decided.has(r.requestId));
      if (ready) await options.onReady?.(turn);
      return { status: 'accepted', decision: result.decision, ready };
    },
    continue: (turnId, opts = {}) =>
      defer(() => store.getTurn(checkId(turnId, 'turn id'))).pipe(
        switchMap((turn) => {
          if (!turn) throw new DurableStoreError(`No turn '${turnId}' in the store.`);
          opts.onTurn?.(turn);
          return from(claimFor(turn, opts.takeOver ?? false, opts.exclusive === true));
        }),
        switchMap((claimed) => (claimed ? runClaimed(claimed.turn, opts.signal, undefined, claimed.decisions) : EMPTY)),
      ),
    async cancel(turnId, cancelledBy = 'operator') {
      if (!isStoreId(turnId) || !isStoreId(cancelledBy)) return { status: 'invalid' };
      const status = await store.control(turnId, { kind: 'cancel', by: cancelledBy });
      if (status === undefined) return { status: 'ended' };
      if (status === 'running') return { status: 'requested' };
      // queued or parked: ended here, unless a worker claimed it first (then it reads the cancel before it runs anything)
      const claimed = (await store.getTurn(turnId))?.agent === name ? await store.claimTurn(turnId, owner, ['queued', 'parked'], { leaseMs }) : undefined;
      if (!claimed) return { status: 'requested' };
      await lastValueFrom(runClaimed(claimed), { defaultValue: undefined });
      return { status: 'cancelled' };
    },
    async steer(turnId, message, sentBy = 'user') {
      if (!isStoreId(turnId) || typeof message !== 'string' || !isStoreId(sentBy)) return { status: 'invalid' };
      const turnStatus = await store.control(turnId, { kind: 'steer', message, by: sentBy });
      return turnStatus === undefined ? { status: 'ended' } : { status: 'sent', turnStatus };
    },
  };
}

/** The lease and heartbeat of `durableAgent`'s options, checked: whole milliseconds, the beat below the lease. */
function leaseOf(options: DurableAgentOptions): { leaseMs: number; heartbeatMs: number } {
  const leaseMs = options.leaseMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(leaseMs / 3));
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 2 || !Number.isSafeInteger(heartbeatMs) || heartbeatMs < 1 || heartbeatMs >= leaseMs) {
    throw new ConfigurationError('durableAgent: leaseMs and heartbeatMs must be whole milliseconds, heartbeatMs above 0 and below leaseMs.');
  }
  return { leaseMs, heartbeatMs };
}

const isDecision = (value: unknown): value is ResumeDecision =>
  value === 'yes' ||
  value === 'no' ||
  value === 'always' ||
  (typeof value === 'object' && value !== null && typeof (value as { replaceWith?: unknown }).replaceWith === 'string');
