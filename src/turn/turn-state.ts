import type { Observable } from 'rxjs';
import { fromAbortSignal } from '../execute/from-abort-signal.js';
import type { TurnEvent } from '../observe/events.js';
import { LoopDetector } from '../results/loop-detector.js';
import type { EffectiveTools } from './effective-tools.js';
import { effectiveTools } from './effective-tools.js';
import { turnIngress, type TurnIngress } from './ingress.js';
import type { ChatMessage } from './messages.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';
import type { TurnInput } from './turn-input.js';

/**
 * The mutable state of one running turn. Operators read and extend it; `emit` is the turn's
 * event sink (the subscriber of `run()`, or whatever a hand-assembled loop passes).
 */
export interface TurnState {
  readonly turnId: string;
  readonly ingress: TurnIngress;
  readonly signal?: AbortSignal;
  /** Emits once when the turn's signal aborts. */
  readonly cancel$: Observable<void>;
  readonly memory: readonly string[];
  readonly emit: (event: TurnEvent) => void;
  /**
   * Whether `tool-call` and `tool-result` events are built and emitted. False when only the
   * `done` event is read (`agent.complete` without tracer or logger): then a call costs no
   * event objects besides its observers'.
   */
  readonly callEvents: boolean;
  /** The history that will be returned: input history, the user message, then each round. */
  readonly history: ChatMessage[];
  /** Steering messages waiting for the next iteration. */
  readonly steering: string[];
  /** System notes for the next request only (loop-detector warnings, malformed-protocol help). */
  readonly notes: string[];
  /** Receipts of this turn's successful executions, in completion order. */
  readonly receipts: string[];
  /** Watches this turn's successful calls for repeats, ping-pong and no-progress. */
  readonly loopDetector: LoopDetector;
  /** Prompt-loop guard: signature of prompted calls → iteration and whether they were approved. */
  readonly promptSignatures: Map<string, { iteration: number; approved: boolean }>;
  iteration: number;
  /** Malformed text-protocol responses retried so far. */
  malformedRetries: number;
  /** The model the next request uses (a tool or hook may switch it). */
  model: string;
  tools: EffectiveTools;
  readonly cancelled: () => boolean;
}

/**
 * Creates the state of a new turn: the user message is appended to the input history.
 *
 * @example
 * ```ts
 * const turn = createTurnState(resolved, { message: 'hi' }, (e) => events.push(e));
 * const quiet = createTurnState(resolved, { message: 'hi' }, (e) => done.push(e), false); // no tool-call/tool-result events
 * ```
 */
export function createTurnState(
  resolved: ResolvedAgentExecution,
  input: TurnInput,
  emit: (event: TurnEvent) => void,
  callEvents = true,
): TurnState {
  const ingress = turnIngress(resolved, input);
  const signal = input.signal;
  return {
    turnId: ingress.turnId,
    ingress,
    signal,
    cancel$: fromAbortSignal(signal),
    memory: input.memory ?? [],
    emit,
    callEvents,
    history: [...(input.history ?? []), { role: 'user', content: input.message }],
    steering: [],
    notes: [],
    receipts: [],
    loopDetector: new LoopDetector(resolved.knobs.loopDetection),
    promptSignatures: new Map(),
    iteration: 0,
    malformedRetries: 0,
    model: resolved.model,
    tools: effectiveTools(resolved, input),
    cancelled: () => signal?.aborted === true,
  };
}
