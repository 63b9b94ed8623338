import { NEVER, Observable, type Subscriber, type Subscription, takeUntil } from 'rxjs';
import { ProviderError, ToolLoopError } from '../core/errors.js';
import { isThrownError, readThrown, thrownMessage } from '../core/read-thrown.js';
import type { TokenUsage, TurnEvent } from '../core/events.js';
import type { ProviderEvent, ProviderRequest, ProviderToolCall } from '../provider/provider.js';
import { scrubDelta } from '../results/scrub-delta.js';
import { scrubErrorChain } from '../results/scrub-error-chain.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
import { hideMarkup } from './hide-markup.js';
import { IdleTimer } from './idle-timer.js';

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
 * callProvider(it, buildRequest(it)).pipe(continueWith((response) => afterResponse(it, response)));
 * ```
 * @param it The iteration the request belongs to.
 * @param req The request (`buildRequest`).
 * @return The response's events, then the response.
 */
export function callProvider(it: IterationContext, req: ProviderRequest): Observable<TurnEvent | ModelResponse> {
  const response$ = new Observable<TurnEvent | ModelResponse>((subscriber) => {
    const { resolved, turn } = it;
    const request: RequestState = {
      subscriber,
      it,
      // a provider that ignores its signal is cancelled by unsubscribing alone (ModelProvider.ignoresSignal)
      controller: resolved.provider.ignoresSignal === true ? undefined : new AbortController(),
      text: '',
      inSecret: false, // whether the text so far ends inside a secret (scrubDelta)
      toolCalls: [],
      finishReason: undefined,
      responseId: undefined,
      responseModel: undefined,
      inputTokens: 0,
      outputTokens: 0,
      settled: false,
      idle: undefined,
    };
    if (turn.cancelled()) {
      finish(request, true);
      return undefined;
    }
    let events$: Observable<ProviderEvent>;
    try {
      events$ = resolved.provider.request(req, request.controller?.signal ?? neverAborted());
    } catch (err) {
      fail(request, err); // a provider that throws instead of returning a failing Observable still fails typed
      return undefined;
    }
    // on the turn's signal the stream is cut, and the response comes `cancelled` with the text so far
    const cut$ = turn.cancel$ === NEVER ? events$ : events$.pipe(takeUntil(turn.cancel$));
    const stream: Subscription = cut$.subscribe({
      next: (event) => {
        try {
          onEvent(request, event);
        } catch (err) {
          fail(request, err); // our code's throw goes to the turn, never to RxJS's global reporting
        }
      },
      error: (err: unknown) => fail(request, err),
      complete: () => finish(request, turn.cancelled()),
    });
    if (!request.settled) {
      request.idle = new IdleTimer(resolved.knobs.providerIdleTimeoutMs, () => {
        stream.unsubscribe();
        request.controller?.abort();
        fail(request, new ProviderError(idleMessage(resolved.provider.name, resolved.knobs.providerIdleTimeoutMs)));
      });
      request.idle.start();
    }
    return () => {
      // unsubscribing before the response came aborts the request
      if (!request.settled) {
        settle(request);
        request.controller?.abort();
      }
      stream.unsubscribe();
    };
  });
  // text-protocol markup stays out of the text-delta events (the response keeps it, for the parser)
  return it.resolved.provider.textProtocol !== undefined && it.turn.quiet !== true ? response$.pipe(hideMarkup()) : response$;
}

/** One request in flight: what has streamed so far, and its idle timer. */
interface RequestState {
  readonly subscriber: Subscriber<TurnEvent | ModelResponse>;
  readonly it: IterationContext;
  readonly controller: AbortController | undefined;
  text: string;
  inSecret: boolean;
  readonly toolCalls: ProviderToolCall[];
  finishReason: string | undefined;
  responseId: string | undefined;
  responseModel: string | undefined;
  inputTokens: number;
  outputTokens: number;
  settled: boolean;
  idle: IdleTimer | undefined;
}

function onEvent(request: RequestState, event: ProviderEvent): void {
  request.idle?.touch();
  const broken = contractBreach(event);
  if (broken !== undefined) return fail(request, new ProviderError(`Provider '${request.it.resolved.provider.name}' sent ${broken}.`));
  switch (event.type) {
    case 'text-delta': {
      if (event.text.length === 0) return;
      request.text += event.text;
      if (request.it.turn.quiet === true) return; // nobody reads the turn's events (TurnContext.quiet)
      // the event is rendered (scrubbed); the response keeps the text as the model wrote it
      const shown = scrubDelta(event.text, request.inSecret);
      request.inSecret = shown.inSecret;
      if (shown.text.length > 0) request.subscriber.next({ type: 'text-delta', iteration: request.it.iteration, text: shown.text });
      return;
    }
    case 'tool-call':
      request.toolCalls.push(event);
      return;
    case 'usage':
      request.inputTokens += event.inputTokens;
      request.outputTokens += event.outputTokens;
      if (request.it.turn.quiet !== true) request.subscriber.next({ type: 'usage', inputTokens: event.inputTokens, outputTokens: event.outputTokens });
      return;
    case 'finish':
      request.finishReason = event.reason;
      if (typeof event.responseId === 'string') request.responseId = event.responseId;
      if (typeof event.responseModel === 'string') request.responseModel = event.responseModel;
      return;
  }
}

/** Ends the request's own timers and listeners, once, whichever way it ends. */
function settle(request: RequestState): void {
  request.settled = true;
  request.idle?.stop();
}

function finish(request: RequestState, cancelled: boolean): void {
  if (request.settled) return;
  settle(request);
  if (cancelled) request.controller?.abort();
  const { subscriber, responseId, responseModel, finishReason } = request;
  if ((responseId !== undefined || responseModel !== undefined) && request.it.turn.quiet !== true) {
    subscriber.next({ type: 'response', iteration: request.it.iteration, responseId, responseModel, finishReason });
  }
  const usage = { inputTokens: request.inputTokens, outputTokens: request.outputTokens };
  subscriber.next({ text: request.text, toolCalls: cancelled ? [] : request.toolCalls, finishReason, cancelled, usage });
  subscriber.complete();
}

/** The request failed: a ProviderError, unless the turn was cancelled meanwhile (then the text so far). */
function fail(request: RequestState, err: unknown): void {
  if (request.settled) return;
  if (request.it.turn.cancelled()) return finish(request, true);
  settle(request);
  request.subscriber.error(asProviderError(request.it.resolved.provider.name, err));
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

/** What is wrong with an event the provider contract does not allow (`null`, a `text-delta` without a string, an unknown type); `undefined` when it is fine. */
function contractBreach(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return `an event that is not an object (${event === null ? 'null' : typeof event})`;
  const type = readThrown(event, 'type');
  switch (type) {
    case 'text-delta':
      return typeof readThrown(event, 'text') === 'string' ? undefined : 'a text-delta event whose text is not a string';
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
