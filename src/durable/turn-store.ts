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

/** A change to a turn's row, written only while `attempt` is still the turn's. */
export interface TurnPatch {
  readonly status?: TurnStatus;
  readonly snapshot?: TurnSnapshot | null;
  readonly pending?: readonly ApprovalRequest[];
  readonly outcome?: { readonly reason: string; readonly text: string } | null;
}

/**
 * The port durable turns are kept behind: turns (parked snapshots, the journal's checkpoints),
 * decisions (the first one wins, atomically), the approval audit log, `always` allow-lists,
 * activated deferred tools and conversation history by conversation id, and each turn's events. Three adapters:
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
  /** Records a new turn (status `queued` or `running`, attempt 1); a turn id that exists is refused. */
  createTurn(turn: { turnId: string; agent: string; conversationId?: string; input: StoredInput; status: 'queued' | 'running'; owner?: string }): Promise<StoredTurn>;
  getTurn(turnId: string): Promise<StoredTurn | undefined>;
  listTurns(filter?: { status?: TurnStatus; conversationId?: string }): Promise<StoredTurn[]>;
  /**
   * Atomically takes a turn in one of `from` for `owner`: status `running`, attempt + 1; undefined
   * when it is not in one of them — or, with `alone`, while another turn of its conversation is
   * `running` (checked and taken as one step on every instance: of two turns of a conversation
   * claimed `alone` at once, one gets it).
   */
  claimTurn(turnId: string, owner: string, from: readonly TurnStatus[], options?: { readonly alone?: boolean }): Promise<StoredTurn | undefined>;
  /** Writes a change while `attempt` is the turn's; false when another claim took it over. */
  updateTurn(turnId: string, attempt: number, patch: TurnPatch): Promise<boolean>;
  /** Records a decision unless one exists for the request; the first one wins on every instance. */
  decide(decision: { turnId: string; requestId: string; decision: ResumeDecision; decidedBy: string }): Promise<DecideResult>;
  decisions(turnId: string): Promise<StoredDecision[]>;
  /**
   * Claims the resume of a turn's parked snapshot of `sequence` (its seal's): true once, false for
   * every later claim on any instance, so a snapshot put back into the store never resumes twice.
   */
  claimSnapshot(turnId: string, sequence: number): Promise<boolean>;
  appendAudit(record: AuditRecord): Promise<void>;
  auditLog(filter?: { turnId?: string; conversationId?: string }): Promise<AuditRecord[]>;
  allow(conversationId: string, toolName: string): Promise<void>;
  allowList(conversationId: string): Promise<string[]>;
  /** Records deferred tools a conversation activated (`tool_search`), so a turn on another instance sees them. */
  activate(conversationId: string, toolNames: readonly string[]): Promise<void>;
  activations(conversationId: string): Promise<string[]>;
  saveHistory(conversationId: string, history: readonly ChatMessage[]): Promise<void>;
  history(conversationId: string): Promise<ChatMessage[]>;
  appendEvents(turnId: string, events: readonly TurnEvent[]): Promise<void>;
  /** A turn's events after `afterSeq` (0: from the start), oldest first. */
  events(turnId: string, afterSeq?: number): Promise<StoredEvent[]>;
  /** Calls `listener` on each change made on any instance (LISTEN/NOTIFY, else polling); returns the unsubscribe. */
  watch(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}
