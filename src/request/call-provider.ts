import { catchError, concatWith, defer, filter, map, NEVER, type Observable, of, reduce, takeUntil, throwError, timeout } from 'rxjs';
import { ProviderError, ToolLoopError } from '../core/errors.js';
import { isThrownError, readThrown, thrownMessage } from '../core/read-thrown.js';
import type { TokenUsage, TurnEvent } from '../core/events.js';
import type { ReasoningPart } from '../core/messages.js';
import type { ProviderEvent, ProviderRequest, ProviderToolCall } from '../provider/provider.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubDelta } from '../results/scrub-delta.js';
import { scrubErrorChain } from '../results/scrub-error-chain.js';
import { abortOnUnsubscribe } from '../core/abort-on-unsubscribe.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { hideMarkup } from './hide-markup.js';

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

/**
 * Sends one request and assembles the streamed response: text deltas (scrubbed, as rendered
 * text; the response keeps the model's text) and usage go out as turn events while they arrive,
 * then (when the provider reported a response id or model) a `response` event, then the
 * response; a quiet turn (`TurnContext.quiet`) makes none of these events. With a text-protocol
 * provider the deltas leave its markup out (`hideMarkup`). Cancelling (the
 * turn's signal, or unsubscribing) aborts the provider's signal (none is made for a provider
 * that `ignoresSignal`) and tears its stream down; on the turn's signal the response still
 * comes, `cancelled`, with the text streamed so far. Failures become `ProviderError`, and
 * so does a stream that sends no event for `knobs.providerIdleTimeoutMs` (its signal is aborted).
 *
 * ```
 * provider: -t-t--c-|
 * result:   -t-t-----(r|)      t: text-delta events, r: the response
 * ```
 * @example
 * ```ts
 * callProvider(it, buildRequest(it)).pipe(continueWith((response) => of(parseResponse(it, response))));
 * ```
 * @param it The iteration the request belongs to.
 * @param req The request (`buildRequest`).
 * @return The response's events, then the response.
 */
export function callProvider(it: IterationContext, req: ProviderRequest): Observable<TurnEvent | ModelResponse> {
  const { resolved, turn } = it;
  const response$ = defer(() => {
    const streamed = streamedSoFar();
    if (turn.cancelled()) return responseOf(it, streamed, true);
    const idleMs = resolved.knobs.providerIdleTimeoutMs;
    // a throw of the provider's, or an Observable it did not return, fails typed (defer, catchError)
    const request = (signal: AbortSignal): Observable<ProviderEvent> => defer(() => resolved.provider.request(req, signal));
    // torn down before the response came (the turn's cancel, the idle deadline, unsubscribing): its
    // signal aborts first, then its stream is torn down; a provider that ignores its signal
    // (ModelProvider.ignoresSignal) is cancelled by the teardown alone
    const events$ = resolved.provider.ignoresSignal === true ? request(neverAborted()) : abortOnUnsubscribe(undefined, request);
    // on the turn's signal the stream is cut, and the response comes `cancelled` with the text so
    // far; a turn without a signal (`cancel$` is `NEVER`) has nothing to cut on
    const cut$ = turn.cancel$ === NEVER ? events$ : events$.pipe(takeUntil(turn.cancel$));
    const bounded$ = cut$.pipe(timeout({ each: idleMs, with: () => throwError(() => new ProviderError(idleMessage(resolved.provider.name, idleMs))) }));
    // a quiet turn makes no event here (`onEvent` only fills `streamed`): the stream is folded into
    // its response (`reduce`) instead of mapped, filtered and followed by it
    const answer$ =
      turn.quiet === true
        ? bounded$.pipe(
            reduce((so: Streamed, event: ProviderEvent) => (onEvent(it, so, event), so), streamed),
            map((so) => modelResponse(so, turn.cancelled())),
          )
        : bounded$.pipe(
            map((event) => onEvent(it, streamed, event)),
            filter((event): event is TurnEvent => event !== undefined),
            concatWith(defer(() => responseOf(it, streamed, turn.cancelled()))),
          );
    // a failure while the turn is being cancelled is its cancellation: the text so far
    return answer$.pipe(
      catchError((err: unknown) => (turn.cancelled() ? responseOf(it, streamed, true) : throwError(() => asProviderError(resolved.provider.name, err)))),
    );
  });
  // text-protocol markup stays out of the text-delta events (the response keeps it, for the parser)
  return resolved.provider.textProtocol !== undefined && turn.quiet !== true ? response$.pipe(hideMarkup()) : response$;
}

/** What a request has streamed so far: plain data, filled as its events arrive. */
interface Streamed {
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

function streamedSoFar(): Streamed {
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

/** Adds a provider event to what streamed; returns the turn event it makes, if any. Throws a `ProviderError` for an event the contract does not allow. */
function onEvent(it: IterationContext, streamed: Streamed, event: ProviderEvent): TurnEvent | undefined {
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

/** The end of a request: its `response` event (when the provider named one), then the response. */
function responseOf(it: IterationContext, streamed: Streamed, cancelled: boolean): Observable<TurnEvent | ModelResponse> {
  const { responseId, responseModel, finishReason } = streamed;
  const response = modelResponse(streamed, cancelled);
  if ((responseId === undefined && responseModel === undefined) || it.turn.quiet === true) return of(response);
  return of<(TurnEvent | ModelResponse)[]>({ type: 'response', iteration: it.iteration, responseId, responseModel, finishReason }, response);
}

/** The response assembled from what streamed (a cancelled one drops its tool calls). */
function modelResponse(streamed: Streamed, cancelled: boolean): ModelResponse {
  const { text, finishReason } = streamed;
  const usage = { inputTokens: streamed.inputTokens, outputTokens: streamed.outputTokens };
  const response: ModelResponse = { text, toolCalls: cancelled ? [] : streamed.toolCalls, finishReason, cancelled, usage };
  if (streamed.reasoning.length > 0) (response as { reasoning?: readonly ReasoningPart[] }).reasoning = streamed.reasoning;
  return response;
}

let unused: AbortSignal | undefined;

/** The signal a provider that ignores its signal is given: one per process, made on first use, never aborted. */
function neverAborted(): AbortSignal {
  return (unused ??= new AbortController().signal);
}

/** The text of a provider deadline failure. */
export function idleMessage(provider: string, ms: number): string {
  return `Provider '${provider}' sent no event for ${ms} ms (knobs.providerIdleTimeoutMs): the request was abandoned.`;
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

/**
 * What the caller sees of a provider's failure: its own `ToolLoopError`, else a `ProviderError`
 * around it; either scrubbed whole (message, stack, cause chain, JSON), as a provider's error can
 * echo a key.
 */
function asProviderError(provider: string, err: unknown): ToolLoopError {
  if (isThrownError(err) && err instanceof ToolLoopError) return scrubErrorChain(err);
  const status = typeof readThrown(err, 'status') === 'number' ? (readThrown(err, 'status') as number) : undefined;
  const reason = thrownMessage(err);
  return scrubErrorChain(new ProviderError(`Provider '${provider}' failed${status ? ` (HTTP ${status})` : ''}: ${reason}`, { status, cause: err }));
}
