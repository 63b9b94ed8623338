import type { ApprovalRequest } from './approval-request.js';
import type { ChatMessage } from './messages.js';
import type { SlotOutcome } from './outcome.js';
import type { TurnSnapshot } from './turn-snapshot.js';

export type { SlotOutcome };

/** Why a turn ended. `'stopped'`: a `stopWhen` condition ended it after a round, before the next request. */
export type DoneReason = 'final' | 'max-iterations' | 'cancelled' | 'paused' | 'stopped';

/** Everything a turn emits, as a readonly discriminated union on `type`. */
export type TurnEvent =
  | {
      readonly type: 'iteration';
      readonly iteration: number;
      /**
       * The model this iteration's request goes to (a tool, a hook or `prepareIteration` may have
       * switched it; with `prepareIteration`, the event comes once it answered). The library's loop
       * always sets it; a hand-made loop may leave it out (spans then name the agent's model).
       */
      readonly model?: string;
    }
  | { readonly type: 'text-delta'; readonly iteration: number; readonly text: string }
  | {
      /**
       * A call's arguments as they stream from a native provider, before the call is prepared:
       * `argumentsText` is the whole text so far (scrubbed), for a card that shows them as they
       * arrive. Every delta of a response comes before its `tool-call` and `approval-request`
       * events. `index` is the call's place in the response (its slot, when the provider sends
       * its calls in order); `id` is the provider's, when it sent one.
       */
      readonly type: 'tool-call-delta';
      readonly iteration: number;
      readonly index: number;
      readonly id?: string;
      readonly name: string;
      readonly argumentsText: string;
    }
  | {
      readonly type: 'tool-call';
      readonly iteration: number;
      readonly slot: number;
      readonly id: string;
      readonly name: string;
      readonly args: unknown;
      /** True right before the tool starts; false for a slot decided by preparation (it never runs). */
      readonly executes: boolean;
    }
  | {
      readonly type: 'tool-result';
      readonly iteration: number;
      readonly slot: number;
      readonly id: string;
      readonly name: string;
      readonly output: string;
      readonly success: boolean;
      readonly outcome: SlotOutcome;
      readonly durationMs: number;
      readonly receipt?: string;
      /**
       * Why an executed call failed, for telemetry's `error.type`: the thrown error's `code`
       * (`tool_timeout` for a timeout), else its class name; `failed` when the tool reported failure.
       * Absent for a success and for a slot that never ran (its `outcome` says why).
       */
      readonly errorType?: string;
    }
  | {
      readonly type: 'approval-request';
      readonly requestId: string;
      readonly toolName: string;
      /** Short, for a log line or a card's title (secret-like keys `[redacted]`, values cut). */
      readonly argumentsSummary: string;
      /**
       * Every argument the tool will receive, nothing cut, credential-shaped values and the values
       * of secret-like keys masked (`scrubValue`): what a card shows the person who decides, since
       * the call's `tool-call` event comes only after the decision.
       */
      readonly arguments: unknown;
    }
  | {
      readonly type: 'approval-decision';
      readonly requestId: string;
      readonly toolName: string;
      readonly decision: 'yes' | 'no' | 'always' | 'replace';
      readonly decidedBy: string;
      readonly byOperator: boolean;
    }
  | { readonly type: 'usage'; readonly inputTokens: number; readonly outputTokens: number }
  | {
      /**
       * An event of a sub-agent's turn that a call of this turn runs (`delegateTool`), nested under
       * that call: it comes after the call's `tool-call` event and before its `tool-result`.
       * `parentCallId` is the call's id, `agent` the sub-agent's name; `event` is the sub-agent's
       * event, scrubbed (every event of its turn but its `done`, which becomes the call's result;
       * a grandchild's events come nested twice). Its `usage` events count into this turn's
       * `done.usage`.
       */
      readonly type: 'delegate';
      readonly iteration: number;
      readonly parentCallId: string;
      readonly agent: string;
      readonly event: NestedEvent;
    }
  | {
      /**
       * What the provider said about the response it sent (OpenAI: the completion's id and model).
       * Emitted once per request, after its text and usage, only by a provider that reports an id
       * or a model; the scripted model reports none.
       */
      readonly type: 'response';
      readonly iteration: number;
      readonly responseId?: string;
      readonly responseModel?: string;
      readonly finishReason?: string;
    }
  | {
      readonly type: 'done';
      readonly text: string;
      readonly reason: DoneReason;
      readonly history: ChatMessage[];
      readonly iterations: number;
      /** Token usage summed over the turn's provider requests (zeros when the provider reports none). */
      readonly usage: TokenUsage;
      /** When 'paused': the turn as data, to continue with `agent.resume(snapshot, { decisions })`. */
      readonly snapshot?: TurnSnapshot;
      /** When 'paused': the approval requests waiting for a decision. */
      readonly pending?: readonly ApprovalRequest[];
      /**
       * When the turn asked for structured output (`TurnInput.output`) and ended 'final': the
       * answer parsed as JSON and validated by the schema (its output). Data, like history: not scrubbed.
       */
      readonly object?: unknown;
    };

/** An event of a sub-agent's turn as its parent's `delegate` event carries it: any but `done`. */
export type NestedEvent = Exclude<TurnEvent, { readonly type: 'done' }>;

/**
 * The event a nested `delegate` event carries, at any depth (a grandchild's event inside its
 * parent's); any other event as it is.
 *
 * @example
 * ```ts
 * const inner = innerEvent(event); // the usage event inside delegate(delegate(usage))
 * ```
 */
export function innerEvent(event: NestedEvent): NestedEvent {
  let inner = event;
  while (inner.type === 'delegate') inner = inner.event;
  return inner;
}

/** Tokens a provider reported. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export type TurnEventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

/**
 * Tells the turn's events from the other values that travel in the same streams (a stage's
 * result: a response, a prepared call, a slot result, an iteration step): events, and only
 * events, have a `type`. A stage that every value of an iteration passes keeps its own copy of
 * this function (bench/RESULTS.md, "Choices in src/ made for speed").
 *
 * @example
 * ```ts
 * stage$.pipe(filter(isTurnEvent)); // only the events
 * ```
 */
export const isTurnEvent = (value: object): value is TurnEvent => (value as { readonly type?: unknown }).type !== undefined;

/** Correlation fields shared by observer events. */
export interface ToolCallCorrelation {
  readonly tool: string;
  readonly toolCallId: string;
  readonly arguments: unknown;
  readonly channel: string;
  readonly agentAlias?: string;
  readonly parentAgentAlias?: string;
  readonly turnId: string;
}

/** Observer events: for logs, metrics and tracing backends. `result` is scrubbed. */
export type ObserverEvent =
  | ({ readonly type: 'tool-call-start' } & ToolCallCorrelation)
  | ({
      readonly type: 'tool-call-end';
      readonly durationMs: number;
      readonly success: boolean;
      readonly outcome: SlotOutcome;
      readonly result: string;
    } & ToolCallCorrelation);

/**
 * Receives observer events. It may be async: an observer that throws, or whose returned promise
 * rejects, is logged (scrubbed) and ignored, once per failure.
 */
export type ToolObserver = (event: ObserverEvent) => void;
