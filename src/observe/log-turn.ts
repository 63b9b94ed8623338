import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import { readThrown } from '../core/read-thrown.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import type { TurnEvent } from '../core/events.js';
import { levelCheck, type Logger } from './logger.js';

/** Who the turn's log lines belong to (bound on the turn's child logger). */
export interface LogTurnOptions {
  readonly turnId: string;
  readonly agent?: string;
  readonly channel?: string;
}

const PREVIEW_CHARS = 200;
const PREVIEW_WINDOW = 4000;

/**
 * Logs a turn's events and passes them on unchanged, through one child logger per turn that
 * carries `turnId` (works with pino, which satisfies the Logger port). Levels: iterations, tool
 * calls and usage at debug; tool results, approvals and the end of the turn at info, except a
 * tool that failed (threw, timed out or reported failure) at warn; the turn's error at error.
 * Text deltas are not logged. Every string is scrubbed; outputs are logged as a 200-character
 * preview. `createAgent` applies it to every turn when it is given a logger.
 *
 * ```
 * events: i-c--r--d|
 * output: i-c--r--d|     (unchanged; one log line each)
 * ```
 * @example
 * ```ts
 * import pino from 'pino';
 * agent.run(input).pipe(logTurn(pino(), { turnId: 'turn-1' })).subscribe();
 * ```
 */
export function logTurn(logger: Logger, options: LogTurnOptions): MonoTypeOperatorFunction<TurnEvent> {
  return (source) =>
    new Observable<TurnEvent>((subscriber) => {
      const bindings: Record<string, unknown> = { turnId: options.turnId };
      if (options.agent !== undefined) bindings.agent = options.agent;
      const log = logger.child ? logger.child(bindings) : withBindings(logger, bindings);
      const debug = levelCheck(log)?.('debug') ?? true;
      let done = false;
      const safely = (action: () => void): void => {
        try {
          action();
        } catch {
          // a logger failure never breaks the turn
        }
      };
      if (debug) safely(() => log.debug({ channel: options.channel }, 'turn started'));
      const subscription = source.subscribe({
        next: (event) => {
          if (event.type === 'done') done = true;
          safely(() => logEvent(log, event, debug));
          subscriber.next(event);
        },
        error: (err: unknown) => {
          done = true;
          safely(() => log.error({ err: scrubValue(err), code: readThrown(err, 'code') }, 'turn failed'));
          subscriber.error(err);
        },
        complete: () => subscriber.complete(),
      });
      return () => {
        subscription.unsubscribe();
        if (!done && debug) safely(() => log.debug({}, 'turn unsubscribed before it ended'));
      };
    });
}

function logEvent(log: Logger, event: TurnEvent, debug: boolean): void {
  switch (event.type) {
    case 'iteration':
      if (debug) log.debug({ iteration: event.iteration }, 'iteration');
      return;
    case 'usage':
      if (debug) log.debug({ inputTokens: event.inputTokens, outputTokens: event.outputTokens }, 'usage');
      return;
    case 'tool-call':
      if (!debug) return;
      log.debug(
        { tool: scrubCredentials(event.name), toolCallId: event.id, iteration: event.iteration, slot: event.slot, args: scrubValue(event.args) },
        'tool call',
      );
      return;
    case 'tool-result': {
      const fields: Record<string, unknown> = {
        tool: scrubCredentials(event.name),
        toolCallId: event.id,
        iteration: event.iteration,
        slot: event.slot,
        outcome: event.outcome,
        success: event.success,
        durationMs: event.durationMs,
        output: preview(event.output),
      };
      // a field set, not a spread (bench/RESULTS.md, "Choices in src/ made for speed")
      if (event.receipt !== undefined) fields.receipt = event.receipt;
      if (event.outcome === 'failed') log.warn(fields, 'tool result');
      else log.info(fields, 'tool result');
      return;
    }
    case 'approval-request':
      log.info({ requestId: event.requestId, tool: scrubCredentials(event.toolName), arguments: scrubCredentials(event.argumentsSummary) }, 'approval requested');
      return;
    case 'approval-decision':
      log.info(
        { requestId: event.requestId, tool: scrubCredentials(event.toolName), decision: event.decision, decidedBy: event.decidedBy, byOperator: event.byOperator },
        'approval decided',
      );
      return;
    case 'done':
      log.info({ reason: event.reason, iterations: event.iterations, textChars: event.text.length }, 'turn done');
      return;
    default:
      return;
  }
}

/**
 * The first 200 characters of an output, scrubbed. Scrubbing sees a generous window first, so a
 * secret cut by the window can never shift into the preview.
 */
function preview(output: string): string {
  return scrubCredentials(output.length > PREVIEW_WINDOW ? output.slice(0, PREVIEW_WINDOW) : output).slice(0, PREVIEW_CHARS);
}

/** A Logger without `child`: bindings merged into every line. */
function withBindings(logger: Logger, bindings: Record<string, unknown>): Logger {
  return {
    debug: (obj, msg) => logger.debug({ ...bindings, ...obj }, msg),
    info: (obj, msg) => logger.info({ ...bindings, ...obj }, msg),
    warn: (obj, msg) => logger.warn({ ...bindings, ...obj }, msg),
    error: (obj, msg) => logger.error({ ...bindings, ...obj }, msg),
  };
}
