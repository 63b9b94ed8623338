import { NEVER, Observable, Subscriber, type Subscription } from 'rxjs';
import { ProviderError, ToolLoopError } from '../core/errors.js';
import type { TokenUsage, TurnEvent } from '../core/events.js';
import type { ProviderEvent, ProviderRequest, ProviderToolCall } from '../provider/provider.js';
import { scrubDelta } from '../results/scrub-delta.js';
import { LeanSubscriber } from '../runtime/lean-subscriber.js';
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
  return new Observable<TurnEvent | ModelResponse>((subscriber) => new ProviderCall(it, subscriber).send(req));
}

/**
 * One request's Subscriber to the provider's stream, holding the response as it is assembled:
 * its state is fields, not a closure each for next, complete, error, cancel and teardown
 * (what a turn keeps alive while it waits for the model: bench/RESULTS.md, "Session 8").
 * Unsubscribing it from outside (the request's subscriber ended) aborts the request.
 */
class ProviderCall extends LeanSubscriber<ProviderEvent> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new ProviderCall(undefined as never, new Subscriber<never>());

  readonly #it: IterationContext;
  readonly #out: Subscriber<TurnEvent | ModelResponse>;
  #controller: AbortController | undefined = undefined;
  #text = '';
  /** Whether the text so far ends inside a secret (scrubDelta). */
  #inSecret = false;
  #toolCalls: ProviderToolCall[] | undefined = undefined;
  #finishReason: string | undefined = undefined;
  #responseId: string | undefined = undefined;
  #responseModel: string | undefined = undefined;
  #inputTokens = 0;
  #outputTokens = 0;
  #settled = false;
  #cancelSub: Subscription | undefined = undefined;
  #idle: IdleTimer | undefined = undefined;

  constructor(it: IterationContext, out: Subscriber<TurnEvent | ModelResponse>) {
    super(); // `super(out)` would add this one to it before LeanSubscriber's fields exist
    this.#it = it;
    this.#out = out;
    this.destination = out;
  }

  /** Sends the request; the response's events and the response go to the request's subscriber. */
  send(req: ProviderRequest): void {
    const { resolved, turn } = this.#it;
    // a provider that ignores its signal is cancelled by unsubscribing alone (ModelProvider.ignoresSignal)
    if (resolved.provider.ignoresSignal !== true) this.#controller = new AbortController();
    this.#out.add(this);
    // a turn without a signal (cancel$ is NEVER) cannot be cancelled: nothing to listen to
    if (turn.cancel$ !== NEVER) this.#cancelSub = turn.cancel$.subscribe(() => this.#cancel());
    if (this.#settled) return;
    let events$: Observable<ProviderEvent>;
    try {
      events$ = resolved.provider.request(req, this.#controller?.signal ?? neverAborted());
    } catch (err) {
      this.#fail(err); // a provider that throws instead of returning a failing Observable still fails typed
      return;
    }
    // idleDeadline's timer, kept in this Subscriber: no stage between the provider and the response
    events$.subscribe(this);
    if (!this.#settled && !this.#out.closed) {
      const idleMs = resolved.knobs.providerIdleTimeoutMs;
      this.#idle = new IdleTimer(idleMs, () => {
        this.unsubscribe(); // settles, aborts the signal and ends the stream
        this.#failWith(new ProviderError(idleMessage(resolved.provider.name, idleMs)));
      });
      this.#idle.start();
    }
  }

  /** The request's subscriber ended first: the request is abandoned and its signal aborted. */
  override unsubscribe(): void {
    if (!this.#settled) {
      this.#settle();
      this.#controller?.abort();
    }
    super.unsubscribe();
  }

  protected override _next(event: ProviderEvent): void {
    try {
      this.#onEvent(event);
    } catch (err) {
      this.#out.error(err);
    }
  }

  protected override _error(err: unknown): void {
    try {
      this.#fail(err);
    } catch (thrown) {
      this.#out.error(thrown);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    try {
      this.#finish(false);
    } catch (err) {
      this.#out.error(err);
    } finally {
      this.unsubscribe();
    }
  }

  #onEvent(event: ProviderEvent): void {
    this.#idle?.touch();
    switch (event.type) {
      case 'text-delta': {
        if (event.text.length === 0) return;
        this.#text += event.text;
        // the event is rendered (scrubbed); the response keeps the text as the model wrote it
        const shown = scrubDelta(event.text, this.#inSecret);
        this.#inSecret = shown.inSecret;
        if (shown.text.length > 0) this.#out.next({ type: 'text-delta', iteration: this.#it.iteration, text: shown.text });
        return;
      }
      case 'tool-call':
        (this.#toolCalls ??= []).push(event);
        return;
      case 'usage':
        this.#inputTokens += event.inputTokens;
        this.#outputTokens += event.outputTokens;
        this.#out.next({ type: 'usage', inputTokens: event.inputTokens, outputTokens: event.outputTokens });
        return;
      case 'finish':
        this.#finishReason = event.reason;
        if (typeof event.responseId === 'string') this.#responseId = event.responseId;
        if (typeof event.responseModel === 'string') this.#responseModel = event.responseModel;
        return;
    }
  }

  /** The turn's signal: the stream ends, and the response still comes, cancelled, with the text so far. */
  #cancel(): void {
    if (this.#settled) return;
    this.#controller?.abort();
    this.unsubscribe(); // settles and ends the stream
    this.#respond(true);
  }

  /** Ends the request's own timers and listeners, once, whichever way it ends. */
  #settle(): void {
    this.#settled = true;
    this.#idle?.stop();
    this.#cancelSub?.unsubscribe();
  }

  #finish(cancelled: boolean): void {
    if (this.#settled) return;
    this.#settle();
    this.#respond(cancelled);
  }

  /** The response: a `response` event first when the provider named one. */
  #respond(cancelled: boolean): void {
    const out = this.#out;
    const finishReason = this.#finishReason;
    if (this.#responseId !== undefined || this.#responseModel !== undefined) {
      const iteration = this.#it.iteration;
      out.next({ type: 'response', iteration, responseId: this.#responseId, responseModel: this.#responseModel, finishReason });
    }
    const toolCalls = cancelled || this.#toolCalls === undefined ? [] : this.#toolCalls;
    out.next({ text: this.#text, toolCalls, finishReason, cancelled, usage: { inputTokens: this.#inputTokens, outputTokens: this.#outputTokens } });
    out.complete();
  }

  /** The request failed: a ProviderError, unless the turn was cancelled meanwhile (then the text so far). */
  #fail(err: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.#failWith(err);
  }

  #failWith(err: unknown): void {
    const { turn, resolved } = this.#it;
    if (turn.cancelled()) this.#respond(true);
    else this.#out.error(asProviderError(resolved.provider.name, err));
  }
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
