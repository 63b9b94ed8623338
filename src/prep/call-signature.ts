import { flatSortedJson } from '../results/canonical-json.js';

/**
 * A call's identity for duplicate detection: the name, then the arguments as JSON with object
 * keys sorted at every depth. Undefined when the arguments cannot be serialized (a cycle): such
 * a call is never treated as a duplicate.
 *
 * @example
 * ```ts
 * callSignature('read', { b: 1, a: 2 }) === callSignature('read', { a: 2, b: 1 }); // true
 * ```
 */
export function callSignature(name: string, args: unknown): string | undefined {
  const key = argsKey(args);
  return key === undefined ? undefined : `${name}\u0000${key}`;
}

/**
 * The arguments part of `callSignature`: JSON with object keys sorted at every depth, or
 * undefined when they cannot be serialized (a cycle). Flat objects whose keys are already in
 * order (the common case) cost one `JSON.stringify`.
 *
 * @example
 * ```ts
 * argsKey({ b: 1, a: 2 }); // '{"a":2,"b":1}'
 * ```
 */
export function argsKey(args: unknown): string | undefined {
  const flat = flatSortedJson(args);
  if (flat !== undefined) return flat;
  try {
    return JSON.stringify(args, sortKeys) ?? '';
  } catch {
    return undefined;
  }
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] <= keys[i];
  if (sorted) return value;
  const out: Record<string, unknown> = {};
  for (const key of keys.sort()) out[key] = (value as Record<string, unknown>)[key];
  return out;
}
