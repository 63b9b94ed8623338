import { ProviderError } from '../../core/errors.js';
import { readThrown, thrownMessage } from '../../core/read-thrown.js';
import { scrubErrorChain } from '../../results/scrub-error-chain.js';
import { RetriedFailure } from '../first-failure-retries.js';

/**
 * Turns what an AI SDK model threw into a `ProviderError`, scrubbed whole (message, stack, the
 * model's error kept as `cause` with its response body): an `APICallError` with a failing
 * `statusCode` is an HTTP failure with that `status` and the server's message; one without a
 * status is a request that got no response; anything thrown while the stream was read is a
 * connection lost mid-stream. After
 * retries, the first failure is reported, and the last one too when it differs.
 *
 * @example
 * ```ts
 * catch (err) { subscriber.error(aiSdkError('openai.chat', err, 'request')); }
 * ```
 */
export function aiSdkError(provider: string, err: unknown, phase: 'request' | 'stream'): ProviderError {
  let made: ProviderError;
  try {
    made = err instanceof RetriedFailure ? describeRetried(provider, err, phase) : describe(provider, err, phase);
  } catch {
    made = new ProviderError(`Provider '${provider}' failed: ${thrownMessage(err)}`, { cause: err });
  }
  return scrubErrorChain(made);
}

/**
 * The message of an error the model reported: an Error's own, an error object's `message`, or
 * the value as JSON.
 *
 * @example
 * ```ts
 * reportedMessage({ type: 'overloaded_error', message: 'Overloaded' }); // 'Overloaded'
 * ```
 */
export function reportedMessage(error: unknown): string {
  const message = readThrown(error, 'message');
  if (typeof message === 'string' && message.length > 0) return message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return thrownMessage(error);
  }
}

function describe(provider: string, err: unknown, phase: 'request' | 'stream'): ProviderError {
  if (err instanceof ProviderError) return err;
  const prefix = `Provider '${provider}' failed`;
  const status = readThrown(err, 'statusCode');
  if (typeof status === 'number' && status >= 300) {
    return new ProviderError(`${prefix} (HTTP ${status}): ${reportedMessage(err)}`, { status, cause: err });
  }
  if (readThrown(err, 'name') === 'AbortError') return new ProviderError(`${prefix}: the request was cancelled.`, { cause: err });
  // a body that broke off is an APICallError with the response's 2xx status ("Failed to process successful response")
  if (phase === 'stream') return new ProviderError(`${prefix}: the connection was lost mid-stream (${deepest(err)}).`, { cause: err });
  if (typeof status === 'number') return new ProviderError(`${prefix}: the response could not be read (${deepest(err)}).`, { cause: err });
  if (readThrown(err, 'name') === 'AI_APICallError') return new ProviderError(`${prefix}: no response from the server (${deepest(err)}).`, { cause: err });
  return new ProviderError(`${prefix}: ${reportedMessage(err)}`, { cause: err });
}

/** `Provider 'p' failed (HTTP 500): busy (2 retries failed too, the last with HTTP 503: down)`. */
function describeRetried(provider: string, err: RetriedFailure, phase: 'request' | 'stream'): ProviderError {
  const first = describe(provider, err.first, phase);
  const last = describe(provider, err.last, phase);
  if (last.message === first.message) return first;
  const detail = last.message.slice(`Provider '${provider}' failed`.length).replace(/^ \((HTTP \d+)\):/, '$1:').replace(/^: /, '');
  const retries = err.retries === 1 ? 'the retry' : `${err.retries} retries`;
  return new ProviderError(`${first.message} (${retries} failed too, the last with ${detail})`, { status: first.status, cause: err.first });
}

/** The most specific message in the cause chain (`connect ECONNREFUSED …` under `fetch failed`). */
function deepest(err: unknown): string {
  let message = reportedMessage(err);
  let cause = readThrown(err, 'cause');
  for (let depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    const text = readThrown(cause, 'message');
    if (typeof text === 'string' && text.length > 0) message = text;
    cause = readThrown(cause, 'cause');
  }
  return message;
}
