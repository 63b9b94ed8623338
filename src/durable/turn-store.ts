import type { ApprovalRequest } from '../core/approval-request.js';
import type { TurnEvent } from '../core/events.js';
import type { Ingress } from '../core/ingress.js';
import type { ChatMessage } from '../core/messages.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { ResumeDecision } from '../loop/check-snapshot.js';

/**
 * Where a durable turn stands: `queued` (submitted, not started), `running` (a worker has it),
 * `parked` (waiting for decisions), `done` (ended: final, cancelled, max-iterations) or `failed`.
 */
export type TurnStatus = 'queued' | 'running' | 'parked' | 'done' | 'failed';

/** What a turn was started with, as data (no signal, steering stream or journal). */
export interface StoredInput {
  readonly message: string;
  readonly history?: readonly ChatMessage[];
  readonly tools?: readonly string[];
  readonly memory?: readonly string[];
  readonly ingress: Ingress & { readonly turnId: string };
}

/** A turn as the store keeps it. */
export interface StoredTurn {
  readonly turnId: string;
  readonly agent: string;
  readonly conversationId: string | null;
  readonly status: TurnStatus;
  readonly input: StoredInput;
  /** Parked: the snapshot to resume. Running: the journal's last snapshot (null before the first round). */
  readonly snapshot: TurnSnapshot | null;
  /** Parked: the approval requests waiting. */
  readonly pending: readonly ApprovalRequest[];
  /** Done or failed: how it ended. */
  readonly outcome: { readonly reason: string; readonly text: string } | null;
  /** Raised by every claim: a worker writes only while its attempt is the turn's (fencing). */
  readonly attempt: number;
  readonly owner: string | null;
  /** Milliseconds since the epoch. */
  readonly updatedAt: number;
  /**
   * When the running worker's lease runs out (milliseconds since the epoch, by the clocks of the
   * instances that claim and renew it): a live worker renews it (`renewLease`); past it, the turn
   * may be taken over. Null: no lease (never taken over by expiry).
   */
  readonly leaseUntil: number | null;
}

/** A request to a turn, recorded from any instance: stop it, or a user message for its next iteration. */
export type TurnControl = { readonly kind: 'cancel'; readonly by: string } | { readonly kind: 'steer'; readonly message: string; readonly by: string };

/** What a worker takes from its turn's controls: whether it is cancelled (by whom), and the steering messages no attempt took before. */
export interface TakenControls {
  readonly cancelledBy?: string;
  readonly steering: readonly string[];
}

/** A decision as recorded: the first one for a request wins. */
export interface StoredDecision {
  readonly turnId: string;
  readonly requestId: string;
  readonly decision: ResumeDecision;
  readonly decidedBy: string;
  readonly decidedAt: number;
}

/** What `decide` did: recorded, or refused because another decision won first. */
export type DecideResult = { readonly accepted: true; readonly decision: StoredDecision } | { readonly accepted: false; readonly winner: StoredDecision };

/** One approval decision in the audit log (what was decided, by whom, on which turn). */
export interface AuditRecord {
  readonly turnId: string;
  readonly conversationId: string | null;
  readonly requestId: string;
  readonly toolName: string;
  readonly decision: string;
  readonly decidedBy: string;
  readonly byOperator: boolean;
  readonly at: number;
}

/** A turn event as stored, with its place in the log. */
export interface StoredEvent {
  readonly seq: number;
  readonly turnId: string;
  readonly event: TurnEvent;
}

/** What changed in the store (watchers wake on it): a turn's row, a decision, or new events. */
export interface StoreChange {
  readonly kind: 'turn' | 'decision' | 'event';
  readonly turnId: string;
}

/** What a turn of a conversation starts with: its allow-list, the deferred tools it activated and, when asked for, its history. */
export interface ConversationState {
  readonly allowList: string[];
  readonly activations: string[];
  readonly history?: ChatMessage[];
}

/** The statuses a turn ends in: `prune` deletes only these, never a queued, running or parked turn. */
export const FINISHED_STATUSES: readonly TurnStatus[] = ['done', 'failed'];

/** What `prune` deletes: finished turns last written more than `olderThanMs` ago (by the store's clock). */
export interface PruneOptions {
  readonly olderThanMs: number;
  /** Turns deleted per statement, each statement a short transaction of its own. Default 500. */
  readonly batchSize?: number;
}

/** What `prune` deleted. */
export interface PruneResult {
  readonly turns: number;
}

/** A change to a turn's row, written only while `attempt` is still the turn's. */
export interface TurnPatch {
  readonly status?: TurnStatus;
  readonly snapshot?: TurnSnapshot | null;
  readonly pending?: readonly ApprovalRequest[];
  readonly outcome?: { readonly reason: string; readonly text: string } | null;
}

/**
 * The port durable turns are kept behind: turns (parked snapshots, the journal's checkpoints,
 * the lease of the worker running each), decisions (the first one wins, atomically), the
 * controls sent to a turn from any instance (cancel, steering), the approval audit log, `always`
 * allow-lists, activated deferred tools and conversation history by conversation id, and each
 * turn's events. Writes of a worker are fenced by its claim's `attempt`. Three adapters:
 * `memoryTurnStore()` (one process), `pgliteTurnStore({ dataDir })` (one machine) and
 * `postgresTurnStore(pool)` (any number of instances).
 *
 * @example
 * ```ts
 * const store = await postgresTurnStore(new pg.Pool({ connectionString }));
 * const result = await store.decide({ turnId, requestId, decision: 'yes', decidedBy: 'alice' });
 * if (!result.accepted) console.log(`already decided: ${JSON.stringify(result.winner.decision)}`);
 * ```
 */
export interface TurnStore {
  readonly backend: 'memory' | 'pglite' | 'postgres';
  /** Records a new turn (status `queued` or `running`, attempt 1; a running one with a lease of `leaseMs`); a turn id that exists is refused. */
  createTurn(turn: { turnId: string; agent: string; conversationId?: string; input: StoredInput; status: 'queued' | 'running'; owner?: string; leaseMs?: number }): Promise<StoredTurn>;
  getTurn(turnId: string): Promise<StoredTurn | undefined>;
  /** The turns with `status` (one, or any of several) of `conversationId`, each filter left out for every one. */
  listTurns(filter?: { status?: TurnStatus | readonly TurnStatus[]; conversationId?: string }): Promise<StoredTurn[]>;
  /**
   * Atomically takes a turn in one of `from` for `owner`: status `running`, attempt + 1; undefined
   * when it is not in one of them — or, with `alone`, while another turn of its conversation is
   * `running` (checked and taken as one step on every instance: of two turns of a conversation
   * claimed `alone` at once, one gets it); with `alone` and `inOrder`, a queued turn also while
   * another of its conversation is queued before it (submit order: by `updatedAt`, then turn id),
   * checked in the same step. With `expired`, a `running` turn is taken only once its lease ran
   * out. The claim gives the new owner a lease of `leaseMs` (none without it).
   */
  claimTurn(
    turnId: string,
    owner: string,
    from: readonly TurnStatus[],
    options?: { readonly alone?: boolean; readonly inOrder?: boolean; readonly expired?: boolean; readonly leaseMs?: number },
  ): Promise<StoredTurn | undefined>;
  /**
   * Writes a change while `attempt` is the turn's; false when another claim took it over. With
   * `events`, appends them to the turn's log in the same step (both are written, or neither).
   */
  updateTurn(turnId: string, attempt: number, patch: TurnPatch, events?: readonly TurnEvent[]): Promise<boolean>;
  /** Extends the lease to `leaseMs` from now while `attempt` is the turn's (a worker's heartbeat); false when another claim took it over. */
  renewLease(turnId: string, attempt: number, leaseMs: number): Promise<boolean>;
  /** The ids of `agent`'s running turns whose lease ran out (their worker stopped renewing it), oldest first, at most 100. */
  expiredTurns(agent: string): Promise<string[]>;
  /**
   * Records a cancel or a steering message for a turn that has not ended (queued, running or
   * parked) and wakes whoever watches its controls, on every instance; resolves with the turn's
   * status then, or undefined (nothing recorded) when there is no such turn or it ended.
   */
  control(turnId: string, control: TurnControl): Promise<TurnStatus | undefined>;
  /**
   * What the worker of `attempt` must act on: the cancel, if one was recorded, and the steering
   * messages no attempt took before (taken now, oldest first: each goes to one attempt). Nothing
   * once another claim took the turn over.
   */
  takeControls(turnId: string, attempt: number): Promise<TakenControls>;
  /**
   * Calls `listener` soon after a control is recorded for the turn on any instance (NOTIFY, and a
   * poll for what a notification missed); returns the unsubscribe. A call is a hint: read with `takeControls`.
   */
  watchControls(turnId: string, listener: () => void): () => void;
  /** Records a decision unless one exists for the request; the first one wins on every instance. */
  decide(decision: { turnId: string; requestId: string; decision: ResumeDecision; decidedBy: string }): Promise<DecideResult>;
  decisions(turnId: string): Promise<StoredDecision[]>;
  /**
   * Claims the resume of a turn's parked snapshot of `sequence` (its seal's): true once, false for
   * every later claim on any instance, so a snapshot put back into the store never resumes twice.
   */
  claimSnapshot(turnId: string, sequence: number): Promise<boolean>;
  /** Appends to the audit log; with `attempt`, only while it is the turn's (false, nothing written, once another claim took it over). */
  appendAudit(record: AuditRecord, attempt?: number): Promise<boolean>;
  auditLog(filter?: { turnId?: string; conversationId?: string }): Promise<AuditRecord[]>;
  allow(conversationId: string, toolName: string): Promise<void>;
  allowList(conversationId: string): Promise<string[]>;
  /** Records deferred tools a conversation activated (`tool_search`), so a turn on another instance sees them. */
  activate(conversationId: string, toolNames: readonly string[]): Promise<void>;
  activations(conversationId: string): Promise<string[]>;
  /** Replaces the conversation's history; with `fence`, only while its attempt is its turn's (false, nothing written, otherwise). */
  saveHistory(conversationId: string, history: readonly ChatMessage[], fence?: { readonly turnId: string; readonly attempt: number }): Promise<boolean>;
  history(conversationId: string): Promise<ChatMessage[]>;
  /** `allowList`, `activations` and, with `history: true`, `history` of a conversation in one read (what a worker reads before each run of its turn). */
  conversationState(conversationId: string, options?: { readonly history?: boolean }): Promise<ConversationState>;
  /** Appends to the turn's event log, in order; with `attempt`, only while it is the turn's (false, nothing written, once another claim took it over). */
  appendEvents(turnId: string, events: readonly TurnEvent[], attempt?: number): Promise<boolean>;
  /** A turn's events after `afterSeq` (0: from the start), oldest first. */
  events(turnId: string, afterSeq?: number): Promise<StoredEvent[]>;
  /**
   * Deletes the finished turns (`FINISHED_STATUSES`) last written more than `olderThanMs` ago,
   * with their events, decisions, audit entries and snapshot claims; a queued, running or parked
   * turn stays, however old. Conversations' history, allow-lists and activations stay. The SQL
   * stores also delete the `rtl_change` rows that were there at a prune more than an hour before.
   */
  prune(options: PruneOptions): Promise<PruneResult>;
  /** Calls `listener` on each change made on any instance (LISTEN/NOTIFY, else polling); returns the unsubscribe. */
  watch(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}
