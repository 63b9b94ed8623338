import { Observable, type Subscription } from 'rxjs';
import { ProviderError, ToolLoopError } from '../errors.js';
import type { ProviderEvent, ProviderRequest, ProviderToolCall } from '../provider/provider.js';
import type { ResolvedAgentExecution } from './resolved-execution.js';
import type { TurnState } from './turn-state.js';

/** A provider response, assembled from its stream. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ProviderToolCall[];
  readonly finishReason?: string;
  /** The turn's signal aborted while the response streamed; nothing of it is kept. */
  readonly cancelled: boolean;
}

/**
 * Sends one request and assembles the streamed response. Text deltas and usage go out as turn
 * events while they arrive. Cancelling (the turn's signal, or unsubscribing) aborts the
 * provider's signal and tears its stream down. Failures become `ProviderError`.
 *
 * ```
 * provider: -t-t--c-|
 * events:   -t-t-----       (text-delta turn events)
 * result:   --------(r|)
 * ```
 * @example
 * ```ts
 * callProvider(resolved, turn, buildRequest(resolved, turn)).subscribe((r) => r.toolCalls);
 * ```
 */
export function callProvider(
  resolved: ResolvedAgentExecution,
  turn: TurnState,
  req: ProviderRequest,
): Observable<ModelResponse> {
  return new Observable<ModelResponse>((subscriber) => {
    const controller = new AbortController();
    const iteration = turn.iteration;
    let text = '';
    const toolCalls: ProviderToolCall[] = [];
    let finishReason: string | undefined;
    let settled = false;
    let streamSub: Subscription | undefined;
    let cancelSub: Subscription | undefined;
    const finish = (cancelled: boolean): void => {
      if (settled) return;
      settled = true;
      cancelSub?.unsubscribe();
      subscriber.next({ text: cancelled ? '' : text, toolCalls: cancelled ? [] : toolCalls, finishReason, cancelled });
      subscriber.complete();
    };
    cancelSub = turn.cancel$.subscribe(() => {
      controller.abort();
      streamSub?.unsubscribe();
      finish(true);
    });
    if (settled) return;
    let events$: Observable<ProviderEvent>;
    try {
      events$ = resolved.provider.request(req, controller.signal);
    } catch (err) {
      // a provider that throws instead of returning a failing Observable still fails typed
      settled = true;
      cancelSub?.unsubscribe();
      subscriber.error(asProviderError(resolved.provider.name, err));
      return;
    }
    streamSub = events$.subscribe({
      next: (event) => {
        switch (event.type) {
          case 'text-delta':
            if (event.text.length === 0) return;
            text += event.text;
            turn.emit({ type: 'text-delta', iteration, text: event.text });
            return;
          case 'tool-call':
            toolCalls.push(event);
            return;
          case 'usage':
            turn.emit({ type: 'usage', inputTokens: event.inputTokens, outputTokens: event.outputTokens });
            return;
          case 'finish':
            finishReason = event.reason;
            return;
        }
      },
      error: (err: unknown) => {
        if (settled) return;
        if (turn.cancelled()) return finish(true);
        settled = true;
        cancelSub?.unsubscribe();
        subscriber.error(asProviderError(resolved.provider.name, err));
      },
      complete: () => finish(false),
    });
    return () => {
      cancelSub?.unsubscribe();
      if (!settled) {
        settled = true;
        controller.abort();
      }
      streamSub?.unsubscribe();
    };
  });
}

function asProviderError(provider: string, err: unknown): ToolLoopError {
  if (err instanceof ToolLoopError) return err;
  const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : undefined;
  const reason = err instanceof Error ? err.message : String(err);
  return new ProviderError(`Provider '${provider}' failed${status ? ` (HTTP ${status})` : ''}: ${reason}`, { status, cause: err });
}
