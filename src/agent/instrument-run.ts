import { defer, type Observable } from 'rxjs';
import type { ResolvedAgentExecution } from '../runtime/resolved-execution.js';
import { turnIngress } from '../runtime/turn-context.js';
import type { TurnInput } from '../core/turn-input.js';
import type { TurnEvent } from '../core/events.js';
import { logTurn } from '../observe/log-turn.js';
import { noopLogger } from '../observe/logger.js';
import { traceTurn } from '../observe/trace-turn.js';
export type { TelemetryOptions } from '../observe/telemetry-options.js';

/**
 * Runs a turn with the agent's telemetry: when the resolved execution has a tracer, its events
 * are traced (`traceTurn`); when it has a logger, they are logged through a child logger
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
    let events = run(resolved, { ...input, ingress });
    if (tracer) {
      events = events.pipe(
        traceTurn(tracer, {
          agent: ingress.agentAlias,
          model: resolved.model,
          provider: resolved.provider.name,
          turnId,
          captureContent: resolved.telemetry?.captureContent === true,
        }),
      );
    }
    if (logging) {
      events = events.pipe(logTurn(resolved.logger, { turnId, agent: ingress.agentAlias, channel: ingress.channel }));
    }
    return events;
  });
}
