import { catchError, concatWith, defer, filter, map, NEVER, type Observable, of, reduce, takeUntil, throwError, timeout } from 'rxjs';
import { ProviderError, ToolLoopError } from '../core/errors.js';
import { isThrownError, readThrown, thrownMessage } from '../core/read-thrown.js';
import type { TurnEvent } from '../core/events.js';
import type { ProviderEvent, ProviderRequest } from '../provider/provider.js';
import { scrubErrorChain } from '../results/scrub-error-chain.js';
import { abortOnUnsubscribe } from '../core/abort-on-unsubscribe.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { hideMarkup } from './hide-markup.js';
import { modelResponse, onEvent, streamedSoFar, type ModelResponse, type Streamed } from './streamed-response.js';

export type { ModelResponse } from './streamed-response.js';

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

/** The end of a request: its `response` event (when the provider named one), then the response. */
function responseOf(it: IterationContext, streamed: Streamed, cancelled: boolean): Observable<TurnEvent | ModelResponse> {
  const { responseId, responseModel, finishReason } = streamed;
  const response = modelResponse(streamed, cancelled);
  if ((responseId === undefined && responseModel === undefined) || it.turn.quiet === true) return of(response);
  return of<(TurnEvent | ModelResponse)[]>({ type: 'response', iteration: it.iteration, responseId, responseModel, finishReason }, response);
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
