import { ProviderError } from '../core/errors.js';
import { readThrown } from '../core/read-thrown.js';
import type { TokenUsage, TurnEvent } from '../core/events.js';
import type { ReasoningPart } from '../core/messages.js';
import type { IterationContext } from '../context/resolved-execution.js';
import type { ProviderEvent, ProviderToolCall } from '../provider/provider.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubDelta } from '../results/scrub-delta.js';

/** A provider response, assembled from its stream. */
export interface ModelResponse {
  /** The text streamed (when cancelled: what had streamed by then). */
  readonly text: string;
  readonly toolCalls: readonly ProviderToolCall[];
  readonly finishReason?: string;
  /** The turn's signal aborted while the response streamed: its tool calls are dropped. */
  readonly cancelled: boolean;
  /** Tokens the provider reported for this request (zeros when it reported none). */
  readonly usage: TokenUsage;
  /** What the provider needs back with this turn (`ReasoningPart`), in the order it came; absent when there is none. */
  readonly reasoning?: readonly ReasoningPart[];
}

/** What a request has streamed so far: plain data, filled as its events arrive. */
export interface Streamed {
  text: string;
  /** Whether the text so far ends inside a secret (`scrubDelta`). */
  inSecret: boolean;
  readonly toolCalls: ProviderToolCall[];
  readonly reasoning: ReasoningPart[];
  /** Each streaming call's arguments so far, by its index in the response (made on the first `tool-call-delta`). */
  partialCalls: PartialCall[] | undefined;
  finishReason: string | undefined;
  responseId: string | undefined;
  responseModel: string | undefined;
  inputTokens: number;
  outputTokens: number;
}

/**
 * An empty record of what a request streamed, for `onEvent` to fill.
 *
 * @example
 * ```ts
 * const streamed = streamedSoFar();
 * ```
 */
export function streamedSoFar(): Streamed {
  return {
    text: '',
    inSecret: false,
    toolCalls: [],
    reasoning: [],
    partialCalls: undefined,
    finishReason: undefined,
    responseId: undefined,
    responseModel: undefined,
    inputTokens: 0,
    outputTokens: 0,
  };
}

/**
 * Adds a provider event to what streamed; returns the turn event it makes, if any (none on a
 * quiet turn). Throws a `ProviderError` for an event the contract does not allow
 * (`contractBreach`).
 *
 * @example
 * ```ts
 * const event = onEvent(it, streamed, { type: 'text-delta', text: 'hi' }); // a text-delta turn event
 * ```
 */
export function onEvent(it: IterationContext, streamed: Streamed, event: ProviderEvent): TurnEvent | undefined {
  const broken = contractBreach(event);
  if (broken !== undefined) throw new ProviderError(`Provider '${it.resolved.provider.name}' sent ${broken}.`);
  const quiet = it.turn.quiet === true; // nobody reads the turn's events (TurnContext.quiet)
  switch (event.type) {
    case 'text-delta': {
      if (event.text.length === 0) return undefined;
      streamed.text += event.text;
      if (quiet) return undefined;
      // the event is rendered (scrubbed); the response keeps the text as the model wrote it
      const shown = scrubDelta(event.text, streamed.inSecret);
      streamed.inSecret = shown.inSecret;
      return shown.text.length > 0 ? { type: 'text-delta', iteration: it.iteration, text: shown.text } : undefined;
    }
    case 'tool-call':
      streamed.toolCalls.push(event);
      return undefined;
    case 'tool-call-delta':
      return quiet ? undefined : onCallDelta(it, streamed, event);
    case 'reasoning':
      streamed.reasoning.push(event.part);
      return undefined;
    case 'usage':
      streamed.inputTokens += event.inputTokens;
      streamed.outputTokens += event.outputTokens;
      return quiet ? undefined : { type: 'usage', inputTokens: event.inputTokens, outputTokens: event.outputTokens };
    case 'finish':
      streamed.finishReason = event.reason;
      if (typeof event.responseId === 'string') streamed.responseId = event.responseId;
      if (typeof event.responseModel === 'string') streamed.responseModel = event.responseModel;
      return undefined;
  }
}

/** A call whose arguments are streaming: what its deltas said so far. */
interface PartialCall {
  id: string | undefined;
  name: string;
  text: string;
}

/** Adds a fragment to its call's arguments; the event shows the whole text so far, scrubbed. */
function onCallDelta(it: IterationContext, streamed: Streamed, event: Extract<ProviderEvent, { type: 'tool-call-delta' }>): TurnEvent | undefined {
  const calls = (streamed.partialCalls ??= []);
  const call = (calls[event.index] ??= { id: undefined, name: '', text: '' });
  if (typeof event.id === 'string' && event.id.length > 0) call.id = event.id;
  if (typeof event.name === 'string' && event.name.length > 0) call.name = event.name;
  call.text += event.argumentsDelta;
  return {
    type: 'tool-call-delta',
    iteration: it.iteration,
    index: event.index,
    ...(call.id !== undefined ? { id: call.id } : {}),
    name: scrubCredentials(call.name),
    argumentsText: scrubCredentials(call.text),
  };
}

/**
 * The response assembled from what streamed (a cancelled one drops its tool calls).
 *
 * @example
 * ```ts
 * const response = modelResponse(streamed, turn.cancelled());
 * ```
 */
export function modelResponse(streamed: Streamed, cancelled: boolean): ModelResponse {
  const { text, finishReason } = streamed;
  const usage = { inputTokens: streamed.inputTokens, outputTokens: streamed.outputTokens };
  const response: ModelResponse = { text, toolCalls: cancelled ? [] : streamed.toolCalls, finishReason, cancelled, usage };
  if (streamed.reasoning.length > 0) (response as { reasoning?: readonly ReasoningPart[] }).reasoning = streamed.reasoning;
  return response;
}

/** The highest call index a `tool-call-delta` may have: a response of more calls than this is not streamed call by call. */
const MAX_CALL_INDEX = 10_000;

/** What is wrong with an event the provider contract does not allow (`null`, a `text-delta` without a string, an unknown type); `undefined` when it is fine. */
function contractBreach(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return `an event that is not an object (${event === null ? 'null' : typeof event})`;
  const type = readThrown(event, 'type');
  switch (type) {
    case 'text-delta':
      return typeof readThrown(event, 'text') === 'string' ? undefined : 'a text-delta event whose text is not a string';
    case 'tool-call-delta': {
      const index = readThrown(event, 'index');
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > MAX_CALL_INDEX) return 'a tool-call-delta event whose index is not a whole number from 0';
      return typeof readThrown(event, 'argumentsDelta') === 'string' ? undefined : 'a tool-call-delta event whose argumentsDelta is not a string';
    }
    case 'reasoning': {
      const part = readThrown(event, 'part');
      const ok = typeof part === 'object' && part !== null && typeof readThrown(part, 'provider') === 'string' && typeof readThrown(part, 'data') === 'object' && readThrown(part, 'data') !== null;
      return ok ? undefined : 'a reasoning event whose part is not { provider: string, data: object }';
    }
    case 'tool-call':
    case 'usage':
    case 'finish':
      return undefined;
    default:
      return `an event of unknown type (${typeof type === 'string' ? `'${type}'` : typeof type})`;
  }
}

