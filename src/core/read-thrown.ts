/**
 * Reading a thrown or rejected value of any shape without throwing: a revoked Proxy, an Error
 * whose `code`, `message` or `name` getter throws, `undefined`. Every place that reads an error
 * it did not make (a tool's, a hook's, a provider's, an observer's) reads it through these.
 */

/**
 * One property of a thrown value (or of any value from outside: a provider's event); `undefined`
 * when it has none or reading it throws.
 *
 * @example
 * ```ts
 * readThrown(new ProviderError('x'), 'code'); // 'provider_error'
 * ```
 */
export function readThrown(thrown: unknown, field: string): unknown {
  if ((typeof thrown !== 'object' || thrown === null) && typeof thrown !== 'function') return undefined;
  try {
    return (thrown as Record<string, unknown>)[field];
  } catch {
    return undefined;
  }
}

/**
 * Whether the value is an Error; `false` when asking throws (a revoked Proxy).
 *
 * @example
 * ```ts
 * isThrownError(new TypeError('x')); // true
 * ```
 */
export function isThrownError(thrown: unknown): thrown is Error {
  try {
    return thrown instanceof Error;
  } catch {
    return false;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * What can be read of a thrown value, as text: an Error's message (else its name), a string as
 * it is, anything else as JSON (else `String`), and a fixed text when nothing can be read.
 *
 * @example
 * ```ts
 * thrownMessage(new Error('boom')); // 'boom'
 * ```
 */
export function thrownMessage(thrown: unknown): string {
  if (typeof thrown === 'string') return thrown;
  if (thrown === undefined || thrown === null) return String(thrown);
  if (isThrownError(thrown)) return text(readThrown(thrown, 'message')) ?? text(readThrown(thrown, 'name')) ?? 'an error that could not be read';
  try {
    const json = JSON.stringify(thrown);
    return json === undefined ? String(thrown) : json;
  } catch {
    try {
      return String(thrown);
    } catch {
      return 'a value that could not be read';
    }
  }
}

/**
 * A thrown value as `error.type`: its non-empty string `code` (a ToolLoopError's, e.g.
 * `tool_timeout`), else an Error's class name (else its `name`), else `_OTHER`.
 *
 * @example
 * ```ts
 * thrownType(new TypeError('x')); // 'TypeError'
 * ```
 */
export function thrownType(thrown: unknown): string {
  const code = readThrown(thrown, 'code');
  if (typeof code === 'string' && code.length > 0) return code;
  if (!isThrownError(thrown)) return '_OTHER';
  let className: unknown;
  try {
    className = thrown.constructor.name;
  } catch {
    // a throwing `constructor` getter: fall back to `name`
  }
  return text(className) ?? text(readThrown(thrown, 'name')) ?? 'Error';
}
