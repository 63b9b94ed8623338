import { ProviderError } from '../core/errors.js';
import { scrubErrorChain } from '../results/scrub-error-chain.js';
import { RetriedFailure } from './first-failure-retries.js';

/** The error classes an `openai` client exposes as statics (`OpenAI.APIError`, …). */
interface OpenAIErrorClasses {
  readonly APIUserAbortError?: abstract new (...args: never[]) => Error;
  readonly APIConnectionTimeoutError?: abstract new (...args: never[]) => Error;
  readonly APIConnectionError?: abstract new (...args: never[]) => Error;
}

/** Where a failure happened: before the response started, or while its stream was read. */
export type FailurePhase = 'request' | 'stream';

/**
 * Turns whatever the `openai` client threw into a `ProviderError` with a clear message and the
 * HTTP status when there is one. `client` is used to recognise its error classes, and its own
 * key is redacted: a server may echo it in a 401 body. The error is scrubbed whole
 * (`scrubErrorChain`) — message, stack, the client's error kept as its `cause` (its body too)
 * and its JSON — since it reaches the caller, logs and spans.
 *
 * @example
 * ```ts
 * catch (err) { subscriber.error(toProviderError('openai-chat', client, err, 'stream')); }
 * ```
 */
export function toProviderError(provider: string, client: object, err: unknown, phase: FailurePhase): ProviderError {
  const made = err instanceof RetriedFailure ? describeRetried(provider, client, err, phase) : describeFailure(provider, client, err, phase);
  return scrubErrorChain(made, (text) => redactClientKey(text, client));
}

/**
 * The message with every occurrence of the client's own API key (`client.apiKey`, 8 characters
 * or more) replaced by `[REDACTED]`: a server may echo the key in a 401 body, and the error
 * reaches logs, spans and the caller.
 *
 * @example
 * ```ts
 * redactClientKey('Incorrect API key provided: sk-abcdefgh1234', { apiKey: 'sk-abcdefgh1234' });
 * // 'Incorrect API key provided: [REDACTED]'
 * ```
 */
export function redactClientKey(message: string, client: object): string {
  const key = (client as { apiKey?: unknown }).apiKey;
  if (typeof key !== 'string' || key.length < 8 || !message.includes(key)) return message;
  return message.split(key).join('[REDACTED]');
}

/**
 * The first failure of a request the client retried, with the last one when it differs:
 * `Provider 'p' failed (HTTP 500): no streaming here (2 retries failed too, the last with HTTP 404: not found)`.
 */
function describeRetried(provider: string, client: object, err: RetriedFailure, phase: FailurePhase): ProviderError {
  const first = describeFailure(provider, client, err.first, phase);
  const last = describeFailure(provider, client, err.last, phase);
  if (last.message === first.message) return first;
  const prefix = `Provider '${provider}' failed`;
  const detail = last.message.startsWith(prefix) ? last.message.slice(prefix.length).replace(/^ \((HTTP \d+)\):/, '$1:').replace(/^: /, '') : last.message;
  const retries = err.retries === 1 ? 'the retry' : `${err.retries} retries`;
  return new ProviderError(`${first.message} (${retries} failed too, the last with ${detail})`, { status: first.status, cause: err.first });
}

function describeFailure(provider: string, client: object, err: unknown, phase: FailurePhase): ProviderError {
  if (err instanceof ProviderError) return err;
  const prefix = `Provider '${provider}' failed`;
  const status = statusOf(err);
  const classes = (client as { constructor?: OpenAIErrorClasses }).constructor ?? {};
  if (status !== undefined) {
    return new ProviderError(`${prefix} (HTTP ${status}): ${serverMessage(err, status)}`, { status, cause: err });
  }
  if (isA(err, classes.APIUserAbortError)) return new ProviderError(`${prefix}: the request was cancelled.`, { cause: err });
  if (isA(err, classes.APIConnectionTimeoutError)) return new ProviderError(`${prefix}: the request timed out.`, { cause: err });
  if (isA(err, classes.APIConnectionError)) {
    return new ProviderError(`${prefix}: no response from the server (${describe(err)}).`, { cause: err });
  }
  if (err instanceof SyntaxError) {
    return new ProviderError(`${prefix}: the server sent a malformed stream event (${err.message}).`, { cause: err });
  }
  if (phase === 'stream') {
    const reported = reportedError(err);
    if (reported !== undefined) return new ProviderError(`${prefix}: the server reported an error mid-stream: ${reported}`, { cause: err });
    return new ProviderError(`${prefix}: the connection was lost mid-stream (${describe(err)}).`, { cause: err });
  }
  return new ProviderError(`${prefix}: ${describe(err)}`, { cause: err });
}

/** The response of a stream that ended before the model finished (no `finish_reason`). */
export const truncatedStreamError = (provider: string): ProviderError =>
  new ProviderError(`Provider '${provider}' failed: the stream ended before the response was complete (no finish_reason).`);

const isA = (err: unknown, cls: (abstract new (...args: never[]) => Error) | undefined): boolean =>
  typeof cls === 'function' && err instanceof cls;

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 100 ? status : undefined;
}

/** The message the server put in its error body, or the client's text without the leading status. */
function serverMessage(err: unknown, status: number): string {
  const body = (err as { error?: { message?: unknown } } | null)?.error;
  if (typeof body?.message === 'string' && body.message.length > 0) return body.message;
  const text = describe(err);
  return text.startsWith(`${status} `) ? text.slice(String(status).length + 1) : text;
}

/** An error object the server sent inside the stream (`data: {"error": …}`), when that is what this is. */
function reportedError(err: unknown): string | undefined {
  const body = (err as { error?: unknown } | null)?.error;
  if (body === undefined || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : JSON.stringify(body);
}

/** The most specific message in the error's cause chain (e.g. `connect ECONNREFUSED …` under `fetch failed`). */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  let deepest: Error = err;
  for (let cause = (err as { cause?: unknown }).cause, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause.message) deepest = cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return deepest.message || err.name;
}
