import type { Tracer } from '@opentelemetry/api';
import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import type { TurnEvent } from '../core/events.js';
import type { ToolSpanLink } from './tool-span-link.js';
import { TurnSpans, type TurnSpanOptions } from './turn-spans.js';

/**
 * Traces a turn's events with OpenTelemetry and passes them on unchanged: `invoke_agent {agent}`
 * opens at subscription and closes at `done` (or the error, or unsubscription); `chat {model}`
 * spans each provider request (the model it went to); `execute_tool {tool}` spans each call that
 * executes, from `tool-call` to `tool-result`, a child of `invoke_agent` even when tools run in
 * parallel (a slot decided by preparation gets an `rtl.tool.not_executed` event instead). With a
 * `ToolSpanLink` whose `runTool` the turn uses, tools run inside their span's context. A failure
 * in telemetry never reaches the turn.
 *
 * ```
 * events:  i--c-c--r---r--i--d|
 * output:  i--c-c--r---r--i--d|     (unchanged)
 * spans:   [invoke_agent ........]
 *          [chat]          [chat]
 *             [tool ..]
 *               [tool ....]
 * ```
 * @example
 * ```ts
 * agent.run(input).pipe(traceTurn(trace.getTracer('my-app'), { agent: 'helper', model: 'gpt-4o-mini' }));
 * ```
 */
export function traceTurn(tracer: Tracer, options: TurnSpanOptions, link?: ToolSpanLink): MonoTypeOperatorFunction<TurnEvent> {
  return (source) =>
    new Observable<TurnEvent>((subscriber) => {
      const spans = new TurnSpans(tracer, options);
      link?.attach(spans);
      const safely = (action: () => void): void => {
        try {
          action();
        } catch {
          // telemetry must never break the turn
        }
      };
      const subscription = source.subscribe({
        next: (event) => {
          safely(() => spans.on(event));
          subscriber.next(event);
        },
        error: (err: unknown) => {
          safely(() => spans.fail(err));
          subscriber.error(err);
        },
        complete: () => {
          safely(() => spans.complete());
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        safely(() => spans.complete('unsubscribed'));
        link?.attach(undefined);
      };
    });
}
