import type { ParsedCall } from './calls.js';
import type { ApprovalRequest } from './approval-request.js';
import type { SlotOutcome, SlotResultData } from './outcome.js';
import type { Ingress } from './ingress.js';
import type { ChatMessage, ReasoningPart } from './messages.js';

/** The version of the snapshot format this library writes and reads. */
export const TURN_SNAPSHOT_VERSION = 1;

/**
 * A turn as plain data: what it has said and done so far, and everything it needs to go on.
 * `JSON.parse(JSON.stringify(snapshot))` is an equal snapshot. The loop threads one through
 * `expand`: each iteration starts from a snapshot and ends with a new one; nothing mutates it.
 * Runtime services (the signal, clock, ids, logger, tracer, provider, tools) stay outside.
 *
 * The history is model-visible and is not scrubbed; no secret of the agent (a receipt key) is
 * ever part of a snapshot.
 */
export interface TurnSnapshot {
  readonly version: number;
  /** The agent's name. */
  readonly agent: string;
  readonly turnId: string;
  readonly conversationId?: string;
  /** Where the turn came from, with its turn id and agent alias settled. */
  readonly ingress: Ingress & { readonly turnId: string; readonly agentAlias: string };
  /** What decides the turn's tools: the user's message (filter groups) and the run's narrowing. */
  readonly scope: { readonly message: string; readonly tools?: readonly string[] };
  /** The input history, the user message, then each round. */
  readonly history: readonly ChatMessage[];
  /** Iterations counted so far (the provider requests sent, the summary request included). */
  readonly iteration: number;
  /** The model the next request uses (a tool or hook may switch it). */
  readonly model: string;
  /** Malformed text-protocol responses retried so far. */
  readonly malformedRetries: number;
  /** System notes for the next request only (loop-detector warnings). */
  readonly notes: readonly string[];
  /** Receipts of the turn's successful executions, in completion order. */
  readonly receipts: readonly string[];
  /** Prompt-loop guard: signature of each prompted call → the iteration and whether it was approved. */
  readonly promptSignatures: Readonly<Record<string, PromptSignature>>;
  /** The loop detector's sliding window. */
  readonly loopWindow: LoopWindow;
  /** Names of the deferred tools activated so far. */
  readonly activated: readonly string[];
  /** Steering messages received and not yet added to history. */
  readonly steering: readonly string[];
  /** Token usage summed over the turn's requests so far. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /**
   * A turn asked for structured output (`TurnInput.output`): a fingerprint of its output format
   * (a resume must pass the same schema again) and the answers sent back for a correction so far.
   */
  readonly output?: OutputState;
  /** The batch in flight, when the snapshot was taken between a response and its round. */
  readonly batch?: BatchSnapshot;
  /**
   * Set on a snapshot the turn hands out (parked, or a journal's checkpoint): its sequence in the
   * turn (each run of the turn seals with the next) and an HMAC-SHA256 of the rest under the
   * agent's `snapshotKey`. A resume checks it before anything else, and resumes each sequence once.
   */
  readonly seal?: SnapshotSeal;
}

/** A snapshot's seal: which of the turn's snapshots it is, and the MAC that proves it unchanged. */
export interface SnapshotSeal {
  readonly sequence: number;
  /** Random, one per sealed snapshot: a resume consumes it. */
  readonly nonce: string;
  /** HMAC-SHA256 (base64url) of the snapshot's canonical JSON with `seal.mac` left out. */
  readonly mac: string;
}

/** Where a turn's structured output stands (`TurnSnapshot.output`). */
export interface OutputState {
  /** `sha256:` and 32 hex digits over the output format's name and JSON Schema. */
  readonly fingerprint: string;
  /** Final answers sent back for a correction so far. */
  readonly retries: number;
}

/** What the prompt-loop guard remembers of a prompted call. */
export interface PromptSignature {
  readonly iteration: number;
  readonly approved: boolean;
}

/**
 * The loop detector's window as parallel arrays, oldest entry at `start` (a ring of at most the
 * window's size): tool names, key-sorted argument JSON, rendered results, and which batch
 * recorded each entry. `batch` counts the batches checked so far.
 */
export interface LoopWindow {
  readonly names: readonly string[];
  readonly argsJson: readonly string[];
  readonly outputs: readonly string[];
  readonly batches: readonly number[];
  readonly start: number;
  readonly batch: number;
}

/** A batch between the provider's response and the round appended to history. */
export interface BatchSnapshot {
  /** The assistant text of the response that asked for the calls. */
  readonly text: string;
  /** The calls came from model text (text protocol). */
  readonly fromText: boolean;
  readonly calls: readonly ParsedCall[];
  /** What the provider needs back with the assistant message (`ReasoningPart`), when it sent any. */
  readonly reasoning?: readonly ReasoningPart[];
  /** Each slot's state, by slot. */
  readonly slots: readonly SlotState[];
  /** Prompt-loop signatures of the calls prompted in this batch so far. */
  readonly promptedInBatch: readonly string[];
  /** A fingerprint of each prepared tool's parameter schema: a resume whose tool changed fails closed. */
  readonly toolSchemas: Readonly<Record<string, string>>;
  /** The tool names `prepareIteration` narrowed the iteration to, when it did: a resume prepares the rest of the batch against them. */
  readonly offered?: readonly string[];
}

/** Where one slot of a batch in flight stands. */
export type SlotState =
  | { readonly state: 'pending' }
  /** Waiting for an approval decision: the request the operator was shown, and the call as the gate saw it. */
  | {
      readonly state: 'awaiting-approval';
      readonly request: ApprovalRequest;
      readonly name: string;
      readonly args: Record<string, unknown>;
      /** The call's prompt-loop signature, when the guard recorded one. */
      readonly signature?: string;
      /** SHA-256 of the name and arguments the operator was shown (`approvalDigest`): the decision binds to them. */
      readonly digest?: string;
    }
  /** Decided by preparation without running (denied, unknown, deduplicated, …): its outcome and model-visible text. */
  | {
      readonly state: 'filled';
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly outcome: SlotOutcome;
      readonly output: string;
      readonly success: boolean;
    }
  /** Prepared and ready to run with these (final) name and arguments. */
  | {
      readonly state: 'ready';
      readonly name: string;
      readonly args: Record<string, unknown>;
      /** The gate approved it (an operator or policy): its `approved` marker reads true. */
      readonly approved: boolean;
      /** An approval prompt was needed (the batch runs sequentially). */
      readonly prompted: boolean;
      /** The key-sorted arguments the dedup guard recorded. */
      readonly argsKey?: string;
    }
  /** Started and not finished: after a crash it is closed `interrupted` (or run again when idempotent). */
  | {
      readonly state: 'running';
      readonly name: string;
      readonly args: Record<string, unknown>;
      /** As when it was ready: an idempotent tool runs again with these. */
      readonly approved?: boolean;
      readonly prompted?: boolean;
      readonly argsKey?: string;
    }
  | { readonly state: 'done'; readonly result: SlotResultData }
  /**
   * Its tool runs a sub-agent's turn (`delegateTool`), which parked at an approval: the call as it
   * was ready to run, and the sub-agent's parked snapshot. Resuming runs the call again, and the
   * tool resumes the sub-agent's turn with the decisions for its pending requests.
   */
  | {
      readonly state: 'delegated';
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly approved: boolean;
      readonly prompted: boolean;
      readonly argsKey?: string;
      readonly child: TurnSnapshot;
    };

/** A finished slot as data (defined with the outcomes; kept here for the snapshot's readers). */
export type { SlotResultData } from './outcome.js';
