import { type Span, SpanStatusCode, type TimeInput } from '@opentelemetry/api';
import { thrownType } from '../core/read-thrown.js';
import { scrubCredentials } from '../results/scrub.js';
import * as sc from './semconv.js';

const STATUS_CHARS = 200;

/**
 * Marks a span failed: `error.type` and an ERROR status with the (already scrubbed) message,
 * cut to 200 characters. Does nothing without a span.
 *
 * @example
 * ```ts
 * markError(span, 'tool_timeout', 'timed out after 50 ms');
 * ```
 */
export function markError(span: Span | undefined, type: string, message: string): void {
  if (!span) return;
  span.setAttribute(sc.ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, STATUS_CHARS) });
}

/**
 * Records an exception as the conventions' `exception` span event, its text scrubbed:
 * `exception.type` (the error's code or class), `exception.message`, and the scrubbed stack when
 * there is one.
 *
 * @example
 * ```ts
 * recordScrubbedException(span, 'ProviderError', err.message, err.stack, clock.now());
 * ```
 */
export function recordScrubbedException(span: Span | undefined, type: string, message: string, stack?: string, time?: TimeInput): void {
  if (!span) return;
  span.addEvent(
    sc.EVENT_EXCEPTION,
    {
      [sc.ATTR_EXCEPTION_TYPE]: type,
      [sc.ATTR_EXCEPTION_MESSAGE]: scrubCredentials(message),
      ...(stack !== undefined ? { 'exception.stacktrace': scrubCredentials(stack) } : {}),
    },
    time,
  );
}

/**
 * A thrown value as `error.type`: a ToolLoopError's `code` (`provider_error`, `tool_timeout`, …),
 * else the error's class name; `_OTHER` when there is none.
 *
 * @example
 * ```ts
 * errorType(new ProviderError('HTTP 500')); // 'provider_error'
 * errorType(new TypeError('x')); // 'TypeError'
 * ```
 */
export const errorType: (err: unknown) => string = thrownType;
