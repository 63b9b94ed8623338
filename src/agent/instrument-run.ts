import { defer, type Observable } from 'rxjs';
import type { ResolvedAgentExecution } from '../context/resolved-execution.js';
import { turnIngress } from '../context/turn-context.js';
import { turnInputWith, type TurnInput } from '../core/turn-input.js';
import type { TurnEvent } from '../core/events.js';
import { logTurn } from '../observe/log-turn.js';
import { noopLogger } from '../observe/logger.js';
import { ToolSpanLink } from '../observe/tool-span-link.js';
import { traceTurn } from '../observe/trace-turn.js';
export type { TelemetryOptions } from '../observe/telemetry-options.js';

/**
 * Runs a turn with the agent's telemetry: when the resolved execution has a tracer, its events
 * are traced (`traceTurn`) and its tools run inside their `execute_tool` span's context (a
 * `ToolSpanLink` as the turn's `runTool`); spans name the conversation (`input.conversationId`),
 * the provider's conventions name, server and temperature, stamped with the agent's clock. When it has a logger, they are logged through a child logger
 * carrying the turn id (`logTurn`). The turn id is fixed before the turn starts (the ingress's
 * `turnId`, else a new id), so spans, log lines and observer events agree on it. With neither,
 * the turn runs untouched.
 *
 * @example
 * ```ts
 * const events$ = instrumentRun(resolved, { message: 'hi' }, runToolLoop);
 * ```
 */
export function instrumentRun(
  resolved: ResolvedAgentExecution,
  input: TurnInput,
  run: (resolved: ResolvedAgentExecution, input: TurnInput) => Observable<TurnEvent>,
): Observable<TurnEvent> {
  const tracer = resolved.tracer;
  const logging = resolved.logger !== noopLogger;
  if (!tracer && !logging) return run(resolved, input);
  return defer(() => {
    const ingress = turnIngress(resolved, input);
    const { turnId } = ingress;
    const link = tracer ? new ToolSpanLink() : undefined;
    // a spread is fine here: `resolved` is made once per agent (bench/RESULTS.md, "Choices in src/ made for speed")
    let events = run(link ? { ...resolved, runTool: link.runTool } : resolved, turnInputWith(input, { ingress }));
    if (tracer) {
      const { provider } = resolved;
      events = events.pipe(
        traceTurn(
          tracer,
          {
            agent: ingress.agentAlias,
            model: resolved.model,
            provider: provider.telemetryName ?? provider.name,
            turnId,
            conversationId: input.conversationId,
            temperature: resolved.temperature,
            server: provider.server,
            captureContent: resolved.telemetry?.captureContent === true,
            clock: resolved.clock,
          },
          link,
        ),
      );
    }
    if (logging) {
      events = events.pipe(logTurn(resolved.logger, { turnId, agent: ingress.agentAlias, channel: ingress.channel }));
    }
    return events;
  });
}
