import { isThrownError, readThrown, thrownMessage } from '../core/read-thrown.js';
import { scrubCredentials } from './scrub.js';
import { scrubValue } from './scrub-value.js';

const MAX_DEPTH = 8;
const keep = (text: string): string => text;

/**
 * An error as a caller may see it, log it and serialize it: a copy of the same class whose every
 * own property is scrubbed — `message`, `stack`, the `cause` chain (each cause copied the same
 * way), and the fields `JSON.stringify` shows (an SDK's response body, say). `redact` runs on
 * every string first (an OpenAI client's own key, which need not look like a token); then
 * `scrubCredentials`. Returns the value itself when nothing needed redacting; never throws (a
 * value that cannot be read becomes a plain `Error` with what could be read, scrubbed).
 *
 * @example
 * ```ts
 * const shown = scrubErrorChain(new ProviderError('401: Incorrect API key provided: sk-proj-…', { cause: apiError }));
 * shown.message;       // '401: Incorrect API key provided: [REDACTED]'
 * shown.cause.error;   // the response body, scrubbed
 * ```
 */
export function scrubErrorChain<T>(value: T, redact: (text: string) => string = keep): T {
  const text = (s: string): string => {
    let redacted = s;
    try {
      redacted = redact(s);
    } catch {
      // a redaction that throws redacts nothing; the scrubber still runs
    }
    return scrubCredentials(redacted);
  };
  return walk(value, text, 0) as T;
}

function walk(value: unknown, text: (s: string) => string, depth: number): unknown {
  if (typeof value === 'string') return text(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (isThrownError(value)) return copyError(value, text, depth);
  try {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (Array.isArray(value)) {
      const items = value.map((item: unknown) => walk(item, text, depth + 1));
      return scrubValue(items.some((item, i) => item !== value[i]) ? items : value);
    }
    if (proto !== Object.prototype && proto !== null) return value; // a class instance (Headers, …): kept as it is
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const scrubbed = walk(item, text, depth + 1);
      if (scrubbed !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = scrubbed;
    }
    return scrubValue(copy ?? value); // secret-like keys and token-shaped keys
  } catch {
    return '[Unreadable]'; // a revoked Proxy, a throwing getter or trap
  }
}

/** A copy of the error with the same prototype, each own property scrubbed; the error itself when none changed. */
function copyError(err: Error, text: (s: string) => string, depth: number): Error {
  try {
    const keys = Reflect.ownKeys(err);
    const descriptors: [PropertyKey, PropertyDescriptor][] = [];
    let changed = false;
    for (const key of keys) {
      const descriptor = Object.getOwnPropertyDescriptor(err, key);
      if (descriptor === undefined) continue;
      // an accessor is read once and kept as a value: a getter could build its text from hidden state
      const value: unknown = 'value' in descriptor ? descriptor.value : typeof key === 'string' ? readThrown(err, key) : undefined;
      const scrubbed = walk(value, text, depth + 1);
      if (scrubbed !== value) changed = true;
      descriptors.push([key, { value: scrubbed, enumerable: descriptor.enumerable, writable: true, configurable: true }]);
    }
    if (!changed) return err;
    const copy = Object.create(Object.getPrototypeOf(err) as object) as Error;
    for (const [key, descriptor] of descriptors) Object.defineProperty(copy, key, descriptor);
    return copy;
  } catch {
    const plain = new Error(text(thrownMessage(err)));
    plain.stack = `Error: ${plain.message}`;
    return plain;
  }
}
