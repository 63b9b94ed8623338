import { readThrown } from '../../core/read-thrown.js';
import { RetriedFailure } from '../first-failure-retries.js';

/**
 * Runs `attempt` up to `maxRetries` more times while it fails with an error the AI SDK marks
 * `isRetryable` (no response, HTTP 408, 409, 429, 5xx), waiting as the AI SDK's own
 * `streamText` would: `retry-after-ms` or `retry-after` when the server sent one under a minute,
 * else 2 s, 4 s, 8 s… A model's `doStream` never retries by itself. When every attempt failed it
 * throws a `RetriedFailure` (the first failure and the last); a cancelled attempt throws as it is.
 *
 * @example
 * ```ts
 * const { stream } = await withAiSdkRetries(2, signal, () => model.doStream(options));
 * ```
 */
export async function withAiSdkRetries<T>(maxRetries: number, signal: AbortSignal, attempt: () => PromiseLike<T>): Promise<T> {
  let first: unknown;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) throw err;
      if (n === 0) first = err;
      if (n >= maxRetries || readThrown(err, 'isRetryable') !== true) throw n === 0 ? err : new RetriedFailure(first, err, n);
      await pause(retryDelayMs(err, n), signal);
    }
  }
}

/** The wait before retry `n + 1`. */
function retryDelayMs(err: unknown, n: number): number {
  const backoff = 2000 * 2 ** n;
  const headers = readThrown(err, 'responseHeaders');
  const ms = Number.parseFloat(String(readThrown(headers, 'retry-after-ms') ?? ''));
  if (Number.isFinite(ms) && ms >= 0 && (ms < 60_000 || ms < backoff)) return ms;
  const after = readThrown(headers, 'retry-after');
  if (typeof after === 'string') {
    const seconds = Number.parseFloat(after);
    const wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
    if (Number.isFinite(wait) && wait >= 0 && (wait < 60_000 || wait < backoff)) return wait;
  }
  return backoff;
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
