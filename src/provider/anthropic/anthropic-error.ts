import { ProviderError } from '../../core/errors.js';
import { scrubErrorChain } from '../../results/scrub-error-chain.js';
import { RetriedFailure } from '../first-failure-retries.js';
import { redactClientKey, toProviderError, type FailurePhase } from '../openai-error.js';

/** The connection error classes the SDK client exposes as statics. */
interface ConnectionErrorClasses {
  readonly APIConnectionError?: abstract new (...args: never[]) => Error;
  readonly APIConnectionTimeoutError?: abstract new (...args: never[]) => Error;
}

/** The error body the Messages API sends, over HTTP or as a stream's `error` event. */
interface ErrorBody {
  readonly type?: unknown;
  readonly error?: { readonly type?: unknown; readonly message?: unknown } | null;
}

/**
 * Turns whatever the `@anthropic-ai/sdk` client threw into a `ProviderError`, as
 * `toProviderError` does for `openai`, reading the message where the Messages API puts it
 * (`{"type":"error","error":{"type":…,"message":…}}`): `Provider 'anthropic' failed (HTTP 429):
 * Number of requests has exceeded your rate limit`, and for a stream's `error` event
 * `… failed: the server reported an error mid-stream: Overloaded (overloaded_error)`. The
 * client's `apiKey` and `authToken` are redacted from the whole error.
 *
 * @example
 * ```ts
 * catch (err) { subscriber.error(toAnthropicError('anthropic', client, err, 'stream')); }
 * ```
 */
export function toAnthropicError(provider: string, client: object, err: unknown, phase: FailurePhase): ProviderError {
  const read = (failure: unknown) => readBody(provider, client, failure, phase);
  const made = toProviderError(provider, client, err instanceof RetriedFailure ? new RetriedFailure(read(err.first), read(err.last), err.retries) : read(err), phase);
  const token = (client as { authToken?: unknown }).authToken;
  return typeof token === 'string' ? scrubErrorChain(made, (text) => redactClientKey(text, { apiKey: token })) : made;
}

/** The response of a stream that ended before its `message_stop`. */
export const truncatedAnthropicStream = (provider: string): ProviderError =>
  new ProviderError(`Provider '${provider}' failed: the stream ended before the response was complete (no message_stop).`);

/**
 * A `ProviderError` when the failure carries a Messages API error body, or is the client's
 * connection error while the stream was read (the SDK's name for a body cut short); the failure
 * itself otherwise.
 */
function readBody(provider: string, client: object, err: unknown, phase: FailurePhase): unknown {
  const classes = (client as { constructor?: ConnectionErrorClasses }).constructor ?? {};
  if (phase === 'stream' && isA(err, classes.APIConnectionError) && !isA(err, classes.APIConnectionTimeoutError)) {
    return new ProviderError(`Provider '${provider}' failed: the connection was lost mid-stream (${deepestMessage(err as Error)}).`, { cause: err });
  }
  const failure = err as { status?: unknown; error?: unknown } | null;
  if (typeof failure !== 'object' || failure === null) return err;
  const body = failure.error as ErrorBody | null | undefined;
  const message = body?.error?.message;
  if (typeof message !== 'string' || message.length === 0) return err;
  const status = failure.status;
  if (typeof status === 'number' && status >= 100) {
    return new ProviderError(`Provider '${provider}' failed (HTTP ${status}): ${message}`, { status, cause: err });
  }
  const type = typeof body?.error?.type === 'string' ? ` (${body.error.type})` : '';
  return new ProviderError(`Provider '${provider}' failed: the server reported an error mid-stream: ${message}${type}`, { cause: err });
}

const isA = (err: unknown, cls: (abstract new (...args: never[]) => Error) | undefined): boolean =>
  typeof cls === 'function' && err instanceof cls;

/** The most specific message in the error's cause chain (`other side closed` under `terminated`). */
function deepestMessage(err: Error): string {
  let deepest = err;
  for (let cause = err.cause, depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause) if (cause.message) deepest = cause;
  return deepest.message || err.name;
}
