import { ProviderError } from '../../core/errors.js';

/**
 * The error of a response the server reports as failed (`response.failed`, or a whole response
 * with `status: 'failed'`): the server's message and code.
 *
 * @example
 * ```ts
 * responseFailedError('openai-responses', { status: 'failed', error: { code: 'server_error', message: 'boom' } });
 * // ProviderError: Provider 'openai-responses' failed: the response failed: boom (server_error)
 * ```
 */
export function responseFailedError(provider: string, response: unknown): ProviderError {
  const error = (response as { error?: { code?: unknown; message?: unknown } | null } | null)?.error;
  const message = typeof error?.message === 'string' && error.message.length > 0 ? error.message : 'no reason given';
  const code = typeof error?.code === 'string' && error.code.length > 0 ? ` (${error.code})` : '';
  return new ProviderError(`Provider '${provider}' failed: the response failed: ${message}${code}`);
}

/**
 * The error of an `error` event in the stream (`{ type: 'error', code, message }`), worded as
 * the Chat provider words an error object inside its stream (openai 7's client throws that
 * itself; openai 6 passes the event on).
 *
 * @example
 * ```ts
 * streamErrorEventError('openai-responses', { type: 'error', code: 'overloaded', message: 'try later' });
 * // ProviderError: Provider 'openai-responses' failed: the server reported an error mid-stream: try later
 * ```
 */
export function streamErrorEventError(provider: string, event: unknown): ProviderError {
  const message = (event as { message?: unknown } | null)?.message;
  const text = typeof message === 'string' && message.length > 0 ? message : JSON.stringify(event);
  return new ProviderError(`Provider '${provider}' failed: the server reported an error mid-stream: ${text}`);
}

/**
 * The error of a stream that ended before its closing event (`response.completed` or
 * `response.incomplete`): what did arrive is no answer.
 *
 * @example
 * ```ts
 * streamEndedEarlyError('openai-responses').message;
 * // "Provider 'openai-responses' failed: the stream ended before the response was complete (no response.completed)."
 * ```
 */
export const streamEndedEarlyError = (provider: string): ProviderError =>
  new ProviderError(`Provider '${provider}' failed: the stream ended before the response was complete (no response.completed).`);
