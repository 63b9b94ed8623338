/** The client's retry count (`new OpenAI({ maxRetries })`, default 2) and its error classes. */
interface RetryingClient {
  readonly maxRetries?: unknown;
  readonly constructor?: { readonly APIConnectionError?: abstract new (...args: never[]) => Error };
}

/** What a request that failed on every attempt reports: its first failure, and the last. */
export class RetriedFailure extends Error {
  constructor(
    readonly first: unknown,
    readonly last: unknown,
    readonly retries: number,
  ) {
    super('every attempt failed', { cause: first });
    this.name = 'RetriedFailure';
  }
}

/**
 * Runs `attempt` as the `openai` client would with its own retries — the same count
 * (`client.maxRetries`), the same retryable failures (no response, HTTP 408, 409, 429, 5xx, or
 * what `x-should-retry` says) and the same waits (`retry-after-ms`, `retry-after`, else
 * exponential backoff from 0.5 s up to 8 s) — but one attempt at a time (`maxRetries: 0` for
 * each), so the first failure is kept: a server whose retries answer something else (a mock
 * that ran out of replies answers 404) no longer hides what went wrong. When every attempt
 * failed it throws a `RetriedFailure`; a cancelled attempt throws as it is. A client without a
 * numeric `maxRetries` gets one call with its own options.
 *
 * @example
 * ```ts
 * const stream = await withFirstFailure(client, signal, (options) => client.chat.completions.create(params, options));
 * ```
 */
export async function withFirstFailure<T>(
  client: object,
  signal: AbortSignal,
  attempt: (options: { signal: AbortSignal; maxRetries?: number }) => PromiseLike<T>,
): Promise<T> {
  const maxRetries = (client as RetryingClient).maxRetries;
  if (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0) return attempt({ signal });
  let first: unknown;
  for (let n = 0; ; n++) {
    try {
      return await attempt({ signal, maxRetries: 0 });
    } catch (err) {
      if (signal.aborted) throw err;
      if (n === 0) first = err;
      if (n >= maxRetries || !retryable(err, client as RetryingClient)) throw n === 0 ? err : new RetriedFailure(first, err, n);
      await pause(retryDelayMs(err, n), signal);
    }
  }
}

/** Whether the client would retry this failure: no response (a connection error or timeout), or these statuses. */
function retryable(err: unknown, client: RetryingClient): boolean {
  const failure = err as { status?: unknown } | null;
  const status = failure?.status;
  if (typeof status !== 'number') {
    const connection = client.constructor?.APIConnectionError;
    return typeof connection === 'function' && err instanceof connection;
  }
  const should = header(failure, 'x-should-retry');
  if (should === 'true') return true;
  if (should === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait before retry `n + 1`, as the client computes it. */
function retryDelayMs(err: unknown, n: number): number {
  const ms = Number.parseFloat(header(err, 'retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) return Math.max(0, ms);
  const after = header(err, 'retry-after');
  if (after !== undefined) {
    const seconds = Number.parseFloat(after);
    const wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
    if (!Number.isNaN(wait)) return Math.max(0, wait);
  }
  return Math.min(0.5 * 2 ** n, 8) * (1 - Math.random() * 0.25) * 1000;
}

function header(err: unknown, name: string): string | undefined {
  const headers = (err as { headers?: { get?: (name: string) => string | null } } | null)?.headers;
  return typeof headers?.get === 'function' ? (headers.get(name) ?? undefined) : undefined;
}

/** Waits `ms`, or less when the signal aborts (the next attempt then ends as cancelled). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
