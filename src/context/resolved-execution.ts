import type { Tracer } from '@opentelemetry/api';
import type { Observable, ObservableInput } from 'rxjs';
import type { ToolObserver } from '../core/events.js';
import type { Logger } from '../observe/logger.js';
import type { TelemetryOptions } from '../observe/telemetry-options.js';
import type { AgentHooks } from '../core/hooks.js';
import type { ModelProvider } from '../provider/provider.js';
import type { ActivatedToolSet } from '../registry/activated-tool-set.js';
import type { EffectiveTools } from '../registry/effective-tools.js';
import type { ActivationScopes } from '../registry/activation-store.js';
import type { AgentToolScope } from '../registry/agent-tool-scope.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ReceiptGenerator } from '../results/receipts.js';
import type { ApprovalPort } from '../approval/approval-port.js';
import type { PreparedCall } from '../core/calls.js';
import type { Clock } from '../core/clock.js';
import type { TurnEvent } from '../core/events.js';
import type { TurnIngress } from '../core/ingress.js';
import type { PromptSignature, TurnSnapshot } from '../core/turn-snapshot.js';
import type { TurnJournal } from '../core/turn-journal.js';
import type { Knobs } from '../core/knobs.js';
import type { LoopControl } from '../core/loop-control.js';
import type { OutputSchema } from '../core/structured-output.js';
import type { ToolRunner } from '../core/tool-runner.js';

/**
 * The stable per-agent bundle a turn runs with: built once by `createAgent`, shared by every
 * turn of the agent. Per-message state (history, signal, steering) lives in the turn instead.
 */
export interface ResolvedAgentExecution {
  /** The agent's alias (span names, observer correlation). */
  readonly name: string;
  readonly provider: ModelProvider;
  readonly model: string;
  readonly instructions?: string;
  readonly temperature?: number;
  readonly registry: ToolRegistry;
  /** Excluded tool names, trimmed and lowercased. */
  readonly excluded: ReadonlySet<string>;
  /** The tool assembly (bundles, risk profile, deferred tools, filter groups), resolved once. */
  readonly toolScope: AgentToolScope;
  /**
   * Deferred tools activated so far, one set per conversation (a turn without a conversation id
   * has its own): `activations.forScope({ conversationId })`. Persists across the conversation's turns.
   */
  readonly activations: ActivationScopes;
  readonly approval?: ApprovalPort;
  readonly hooks: AgentHooks;
  readonly observers: readonly ToolObserver[];
  readonly knobs: Knobs;
  readonly receipts?: ReceiptGenerator;
  readonly logger: Logger;
  readonly tracer?: Tracer;
  /** Opt-in span content capture. */
  readonly telemetry?: TelemetryOptions;
  readonly clock: Clock;
  readonly ids: () => string;
  /** The preparation pipeline (hooks, defaults, markers, guards, approval), built once. */
  readonly prepSteps: readonly PrepStep[];
  readonly onModelSwitch?: (from: string, to: string) => void;
  /** The agent's `stopWhen` and `prepareIteration`; absent when it has neither. */
  readonly loopControl?: LoopControl;
  /**
   * Calls a tool's code (`tool.execute`); telemetry sets one per turn to run it inside its
   * `execute_tool` span's context. Absent: the tool is called directly.
   */
  readonly runTool?: ToolRunner;
  /** What the turn's snapshots are sealed with (`AgentConfig.snapshotKey`); absent: the process's own random key. */
  readonly snapshotKey?: Uint8Array;
}

/**
 * The services of one running turn, beside its snapshot (which is data): the agent, the turn's
 * id and ingress, its cancellation, its recalled memory, and the tools of the current iteration.
 */
export interface TurnContext {
  readonly resolved: ResolvedAgentExecution;
  readonly turnId: string;
  readonly ingress: TurnIngress;
  readonly conversationId?: string;
  readonly signal?: AbortSignal;
  /**
   * Emits once when the turn's signal aborts (at once when it already has); RxJS's `NEVER` for a
   * turn without a signal, which nothing can cancel (the loop then leaves out the steps that only
   * cancellation needs: `takeUntil(cancel$)`, `closeUnfinished`).
   */
  readonly cancel$: Observable<void>;
  /** True once the turn's signal aborted (never when `cancel$` is `NEVER`). */
  cancelled(): boolean;
  /**
   * True when nobody reads the turn's events (`agent.complete` on an agent without a tracer or a
   * logger): the loop then makes none of the events that only show the turn (`iteration`,
   * `text-delta`, `usage`, `response`, `tool-call`, and `tool-result` without a receipt), and
   * measures no tool call's duration unless an observer, an `afterToolCall` hook or the journal
   * reads it. Observers are still told of every call; in a turn that can be cancelled the
   * `tool-call` events are still made for them, so that `closeUnfinished` announces each slot once
   * and times its interruption. Absent or false: every event is made.
   */
  readonly quiet?: boolean;
  readonly memory: readonly string[];
  /** The turn's output schema (`TurnInput.output`), when its answer must be structured. */
  readonly output?: OutputSchema;
  /**
   * The sequence this run seals its snapshots with: 1 for a new turn, one more than the resumed
   * snapshot's for a resumed one (absent: 1).
   */
  readonly sealSequence?: number;
  /** Where a durable turn records its progress (`TurnInput.journal`). */
  readonly journal?: TurnJournal;
  /** The deferred tools activated in this turn's conversation (else in this turn alone). */
  readonly activated: ActivatedToolSet;
  /** The tools the current iteration may see and run (`refreshTools` at each iteration's start). */
  readonly tools: EffectiveTools;
  /** Rebuilds `tools` when the activated set changed since they were computed. */
  refreshTools(): EffectiveTools;
  /**
   * Narrows `tools` to these names for the current iteration (`prepareIteration`; names it does
   * not have are left out); the next `refreshTools` lifts it.
   */
  narrowTools(names: readonly string[]): EffectiveTools;
  /** `stopWhen` and `prepareIteration`: the agent's, then the turn's; absent when neither has any. */
  readonly loopControl?: LoopControl;
  /** Steering messages received since the last iteration started; `takeSteering` empties it. */
  takeSteering(): string[];
  hasSteering(): boolean;
}

/**
 * One iteration of a turn: the snapshot it started from (its `iteration` already counted) and
 * what the iteration's stages may change before its round is appended — the model (a tool or
 * hook may switch it) and the prompt-loop guard's signatures. The loop folds both into the next
 * snapshot.
 */
export interface IterationContext {
  readonly turn: TurnContext;
  readonly resolved: ResolvedAgentExecution;
  readonly snapshot: TurnSnapshot;
  /** The iteration's number (1 for the first request). */
  readonly iteration: number;
  /** The model for the following requests; `switchModel` changes it. */
  model: string;
  readonly promptSignatures: Map<string, PromptSignature>;
}

/** Shared by the steps of one batch's preparation. */
export interface PrepContext {
  readonly resolved: ResolvedAgentExecution;
  readonly turn: TurnContext;
  readonly iteration: IterationContext;
  /** Dedup guard: per tool name, the key-sorted arguments (`argsKey`) of the calls seen in this batch. */
  readonly seen: Map<string, Set<string>>;
  /** Prompt-loop signatures seen in this batch. */
  readonly promptedInBatch: Set<string>;
  /** Prompt-loop signature of each guarded slot, so the gate can mark it approved. */
  readonly promptSignatureBySlot: Map<number, string>;
  /**
   * Slots the approval gate approved (an operator's yes/always, or policy); the marker restores
   * to true only for these. Policy approvals are recorded for marker tools only.
   */
  readonly approved: Set<number>;
}

/**
 * A preparation step that decides at once: returns the call as it goes on (the same object when
 * the step had nothing to do; changed; or `filled`, and the steps after it are skipped).
 */
export type ImmediateStep = (call: PreparedCall, ctx: PrepContext) => PreparedCall;

/**
 * A preparation step that may wait (a hook, an approval prompt), made with `prepGate`: an
 * Observable of its turn events (an approval request and decision), then the call as it goes on.
 * The first call it emits decides, and the steps after it run on that call; completing without
 * one drops the call.
 */
export type PrepGate = ((call: PreparedCall, ctx: PrepContext) => Observable<PreparedCall | TurnEvent>) & { readonly waits: true };

/** One step of the preparation pipeline: one that decides at once, or one that may wait. */
export type PrepStep = ImmediateStep | PrepGate;
