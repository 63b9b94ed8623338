import { NEVER, Observable, type Subscription } from 'rxjs';
import { ProviderError, ToolLoopError } from '../core/errors.js';
import type { TokenUsage, TurnEvent } from '../core/events.js';
import type { ProviderEvent, ProviderRequest, ProviderToolCall } from '../provider/provider.js';
import { scrubDelta } from '../results/scrub-delta.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';
import type { IterationContext } from '../runtime/resolved-execution.js';
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
 * response. Cancelling (the turn's signal, or unsubscribing)
 * aborts the provider's signal (none is made for a provider that `ignoresSignal`) and tears its stream down; on the turn's signal the response
 * still comes, `cancelled`, with the text streamed so far. Failures become `ProviderError`, and
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
  const { resolved, turn, iteration } = it;
  return new Observable<TurnEvent | ModelResponse>((subscriber) => {
    // a provider that ignores its signal is cancelled by unsubscribing alone (ModelProvider.ignoresSignal)
    const controller = resolved.provider.ignoresSignal === true ? undefined : new AbortController();
    let text = '';
    let inSecret = false; // whether the text so far ends inside a secret (scrubDelta)
    const toolCalls: ProviderToolCall[] = [];
    let finishReason: string | undefined;
    let responseId: string | undefined;
    let responseModel: string | undefined;
    let inputTokens = 0;
    let outputTokens = 0;
    let settled = false;
    let streamSub: Subscription | undefined;
    let cancelSub: Subscription | undefined;
    let idle: IdleTimer | undefined;
    /** Ends the request's own timers and listeners, once, whichever way it ends. */
    const settle = (): void => {
      settled = true;
      idle?.stop();
      cancelSub?.unsubscribe();
    };
    const finish = (cancelled: boolean): void => {
      if (settled) return;
      settle();
      if (responseId !== undefined || responseModel !== undefined) {
        subscriber.next({ type: 'response', iteration, responseId, responseModel, finishReason });
      }
      subscriber.next({ text, toolCalls: cancelled ? [] : toolCalls, finishReason, cancelled, usage: { inputTokens, outputTokens } });
      subscriber.complete();
    };
    /** The request failed: a ProviderError, unless the turn was cancelled meanwhile (then the text so far). */
    const fail = (err: unknown): void => {
      if (settled) return;
      if (turn.cancelled()) return finish(true);
      settle();
      subscriber.error(asProviderError(resolved.provider.name, err));
    };
    // a turn without a signal (cancel$ is NEVER) cannot be cancelled: nothing to listen to
    if (turn.cancel$ !== NEVER) {
      cancelSub = turn.cancel$.subscribe(() => {
        controller?.abort();
        streamSub?.unsubscribe();
        finish(true);
      });
    }
    if (settled) return;
    let events$: Observable<ProviderEvent>;
    try {
      events$ = resolved.provider.request(req, controller?.signal ?? neverAborted());
    } catch (err) {
      fail(err); // a provider that throws instead of returning a failing Observable still fails typed
      return;
    }
    // idleDeadline's timer, kept in this Subscriber: no stage between the provider and the response
    streamSub = subscribeStage(
      events$,
      subscriber,
      (event) => {
        idle?.touch();
        switch (event.type) {
          case 'text-delta': {
            if (event.text.length === 0) return;
            text += event.text;
            // the event is rendered (scrubbed); the response keeps the text as the model wrote it
            const shown = scrubDelta(event.text, inSecret);
            inSecret = shown.inSecret;
            if (shown.text.length > 0) subscriber.next({ type: 'text-delta', iteration, text: shown.text });
            return;
          }
          case 'tool-call':
            toolCalls.push(event);
            return;
          case 'usage':
            inputTokens += event.inputTokens;
            outputTokens += event.outputTokens;
            subscriber.next({ type: 'usage', inputTokens: event.inputTokens, outputTokens: event.outputTokens });
            return;
          case 'finish':
            finishReason = event.reason;
            if (typeof event.responseId === 'string') responseId = event.responseId;
            if (typeof event.responseModel === 'string') responseModel = event.responseModel;
            return;
        }
      },
      () => finish(false),
      fail,
    );
    if (!settled && !subscriber.closed) {
      const idleMs = resolved.knobs.providerIdleTimeoutMs;
      idle = new IdleTimer(idleMs, () => {
        streamSub?.unsubscribe();
        controller?.abort();
        fail(new ProviderError(idleMessage(resolved.provider.name, idleMs)));
      });
      idle.start();
    }
    return () => {
      if (!settled) {
        settle();
        controller?.abort();
      }
      streamSub?.unsubscribe();
    };
  });
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

function asProviderError(provider: string, err: unknown): ToolLoopError {
  if (err instanceof ToolLoopError) return err;
  const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : undefined;
  const reason = err instanceof Error ? err.message : String(err);
  return new ProviderError(`Provider '${provider}' failed${status ? ` (HTTP ${status})` : ''}: ${reason}`, { status, cause: err });
}
