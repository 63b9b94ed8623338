import { randomUUID } from 'node:crypto';
import { defer, EMPTY, from, type Observable, switchMap } from 'rxjs';
import type { Agent } from '../agent/create-agent.js';
import type { TurnEvent } from '../core/events.js';
import { turnInputWith, type TurnInput } from '../core/turn-input.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { ConfigurationError, SnapshotMismatchError, SnapshotReplayedError, TurnInputError } from '../core/errors.js';
import type { ResumeDecision } from '../loop/check-snapshot.js';
import { snapshotKeyOf, verifySeal } from '../loop/seal-snapshot.js';
import { waitingRequests } from '../loop/waiting-requests.js';
import { ConversationBusyError, DurableStoreError } from './durable-errors.js';
import { checkId, idProblem, isStoreId } from './durable-ids.js';
import { persistTurn } from './persist-turn.js';
import { storeJournal } from './store-journal.js';
import type { StoredDecision, StoredInput, StoredTurn, TurnStore } from './turn-store.js';

/** Options of `durableAgent`. */
export interface DurableAgentOptions {
  readonly store: TurnStore;
  /** This instance's name in the store's `owner` column. Default a random id. */
  readonly owner?: string;
  /** Called when a turn is ready to run here or elsewhere: submitted, or its last pending decision arrived (workers enqueue it). */
  readonly onReady?: (turn: StoredTurn) => void | Promise<void>;
}

/** What `decide` did with a decision. */
export type DecisionOutcome =
  | { readonly status: 'accepted'; readonly decision: StoredDecision; /** every pending request of the turn is decided */ readonly ready: boolean }
  | { readonly status: 'taken'; readonly winner: StoredDecision }
  | { readonly status: 'not-pending' }
  /** The decision is not one, or an id (turn, request, decider) is not: not a string, empty, over 256 characters, a NUL, … (`idProblem`). */
  | { readonly status: 'invalid' };

/** An agent whose turns live in a `TurnStore`: they park, survive restarts and crashes, and go on in any process. */
export interface DurableAgent {
  readonly agent: Agent;
  readonly store: TurnStore;
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
   * in, or — with `takeOver` (a worker that knows the previous owner died) — recovers a running
   * one from its journal. Empty when there is nothing to do here (another instance claimed it, a
   * decision is missing, or the turn is another agent's). A snapshot that is not the row's own —
   * another turn's, or another conversation's — fails the turn with a `SnapshotMismatchError`.
   * With `exclusive` (the queue's workers), it starts or resumes the turn only while no other turn
   * of its conversation runs (the store's claim `alone`), and a queued turn only after those of its
   * conversation queued before it; else it errors with `ConversationBusyError` and changes nothing.
   */
  continue(turnId: string, options?: { signal?: AbortSignal; takeOver?: boolean; exclusive?: boolean }): Observable<TurnEvent>;
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

  /** The turn's input with the conversation's history, allow-list and activated tools from the store. */
  const prepare = async (input: StoredInput, conversationId: string | null): Promise<TurnInput> => {
    if (conversationId === null) return input;
    const approval = agent.resolved.approval as { allowInConversation?: (tool: string, scope: string) => void } | undefined;
    for (const tool of await store.allowList(conversationId)) approval?.allowInConversation?.(tool, conversationId);
    const activated = agent.resolved.activations.forScope({ conversationId });
    for (const name of await store.activations(conversationId)) {
      const tool = agent.resolved.toolScope.deferred.find((t) => t.name === name);
      if (tool) activated.activate(tool);
    }
    return turnInputWith(input, { conversationId, history: input.history ?? (await store.history(conversationId)) });
  };

  const runClaimed = (turn: StoredTurn, signal?: AbortSignal, steering?: TurnInput['steering']): Observable<TurnEvent> => {
    const { conversationId } = turn;
    const atEnd = async (): Promise<void> => {
      if (conversationId !== null) await store.activate(conversationId, agent.resolved.activations.forScope({ conversationId }).names());
    };
    const target = { store, turnId: turn.turnId, conversationId, attempt: turn.attempt, atEnd };
    const journal = storeJournal(store, turn.turnId, turn.attempt, agent.resolved.snapshotKey);
    const snapshot = turn.snapshot;
    if (snapshot?.batch) {
      return from(claimResume(turn.turnId, snapshot)).pipe(
        switchMap(() => store.decisions(turn.turnId)),
        switchMap((all) => {
          const decisions = decisionsFor(snapshot, all);
          const decidedBy = all.find((d) => Object.hasOwn(decisions, d.requestId))?.decidedBy ?? 'resume';
          // the row says whose turn it is: a snapshot of another conversation is refused, never resumed here
          const resume = { decisions, decidedBy, journal, signal, conversationId: turn.conversationId };
          return from(prepare(turn.input, turn.conversationId)).pipe(switchMap(() => agent.resume(snapshot, resume)));
        }),
        persistTurn(target), // a refused snapshot fails the turn
      );
    }
    return from(prepare(turn.input, turn.conversationId)).pipe(
      switchMap((input) => agent.run(turnInputWith(input, steering ? { signal, journal, steering } : { signal, journal }))),
      persistTurn(target),
    );
  };

  return {
    agent,
    store,
    run: (input) =>
      from(
        (async () => {
          const data = stored(input);
          return store.createTurn({ turnId: data.ingress.turnId, agent: name, input: data, status: 'running', owner, ...(input.conversationId ? { conversationId: input.conversationId } : {}) });
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
      const decided = new Set((await store.decisions(turnId)).map((d) => d.requestId));
      const ready = turn.status === 'parked' && turn.pending.every((r) => decided.has(r.requestId));
      if (ready) await options.onReady?.(turn);
      return { status: 'accepted', decision: result.decision, ready };
    },
    continue: (turnId, opts = {}) =>
      defer(() => store.getTurn(checkId(turnId, 'turn id'))).pipe(
        switchMap((turn) => {
          if (!turn) throw new DurableStoreError(`No turn '${turnId}' in the store.`);
          return from(claimFor(turn, opts.takeOver === true, opts.exclusive === true));
        }),
        switchMap((claimed) => (claimed ? runClaimed(claimed, opts.signal) : EMPTY)),
      ),
  };

  /**
   * A parked snapshot resumes once across instances: its seal is checked, it must be the row's
   * own turn, then its sequence is claimed in the store (a journal's checkpoint, recovered after
   * a crash, is fenced by `attempt`).
   */
  async function claimResume(turnId: string, snapshot: TurnSnapshot): Promise<void> {
    if (snapshot.turnId !== turnId) throw new SnapshotMismatchError(`The stored snapshot is of turn '${snapshot.turnId}', not of '${turnId}'.`);
    if (!snapshot.batch?.slots.some((s) => s.state === 'awaiting-approval' || s.state === 'delegated')) return;
    const sequence = verifySeal(snapshot, agent.resolved.snapshotKey ?? snapshotKeyOf(undefined));
    if (!(await store.claimSnapshot(turnId, sequence))) throw new SnapshotReplayedError(turnId, sequence);
  }

  /**
   * Claims the turn when there is something to do with it here: never another agent's turn (a
   * job on a shared or forged queue), and a parked one only once every request it waits for —
   * its row's and its snapshot's — is decided.
   */
  async function claimFor(turn: StoredTurn, takeOver: boolean, exclusive: boolean): Promise<StoredTurn | undefined> {
    if (turn.agent !== name) return undefined;
    if (turn.status === 'queued') return claimStart(turn, 'queued', exclusive);
    if (turn.status === 'running') return takeOver ? store.claimTurn(turn.turnId, owner, ['running']) : undefined;
    if (turn.status !== 'parked') return undefined;
    const decided = new Set((await store.decisions(turn.turnId)).map((d) => d.requestId));
    const waiting = [...turn.pending.map((r) => r.requestId), ...waitingFor(turn.snapshot)];
    if (!waiting.every((id) => decided.has(id))) return undefined;
    return claimStart(turn, 'parked', exclusive);
  }

  /** Claims a queued or parked turn; `exclusive`: only when its conversation has nothing running and nothing queued before it. */
  async function claimStart(turn: StoredTurn, status: 'queued' | 'parked', exclusive: boolean): Promise<StoredTurn | undefined> {
    const { conversationId } = turn;
    if (!exclusive || conversationId === null) return store.claimTurn(turn.turnId, owner, [status]);
    const busy = new ConversationBusyError(turn.turnId, conversationId);
    const next = status === 'queued' ? await nextQueued(store, conversationId) : undefined;
    if (next && next.turnId !== turn.turnId) throw busy; // an earlier one goes first
    const claimed = await store.claimTurn(turn.turnId, owner, [status], { alone: true });
    if (claimed) return claimed;
    if ((await store.getTurn(turn.turnId))?.status === status) throw busy; // refused for another turn running, not taken
    return undefined;
  }
}

/**
 * A conversation's queued turn that starts next: the first submitted (by the `updatedAt` its
 * submitting instance wrote; a queued row is not written again before its claim), then by turn id.
 */
export async function nextQueued(store: TurnStore, conversationId: string): Promise<StoredTurn | undefined> {
  const queued = await store.listTurns({ conversationId, status: 'queued' });
  return queued.sort((a, b) => a.updatedAt - b.updatedAt || (a.turnId < b.turnId ? -1 : a.turnId > b.turnId ? 1 : 0))[0];
}

/** The request ids a snapshot waits for: its own call's, or its parked sub-agents' (`waitingRequests`). */
const waitingFor = (snapshot: TurnSnapshot | null): Set<string> => new Set(waitingRequests(snapshot));

/** The stored decisions the snapshot waits for, keyed by request id. */
function decisionsFor(snapshot: TurnSnapshot, all: readonly StoredDecision[]): Record<string, ResumeDecision> {
  const waiting = waitingFor(snapshot);
  const decisions: Record<string, ResumeDecision> = {};
  for (const d of all) if (waiting.has(d.requestId)) decisions[d.requestId] = d.decision;
  return decisions;
}

const isDecision = (value: unknown): value is ResumeDecision =>
  value === 'yes' ||
  value === 'no' ||
  value === 'always' ||
  (typeof value === 'object' && value !== null && typeof (value as { replaceWith?: unknown }).replaceWith === 'string');
