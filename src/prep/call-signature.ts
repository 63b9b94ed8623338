/**
 * A call's identity for duplicate detection: the name, then the arguments as JSON with object
 * keys sorted at every depth. Undefined when the arguments cannot be serialized (a cycle): such
 * a call is never treated as a duplicate. Flat argument objects (the common case) are
 * serialized directly, without a replacer.
 *
 * @example
 * ```ts
 * callSignature('read', { b: 1, a: 2 }) === callSignature('read', { a: 2, b: 1 }); // true
 * ```
 */
export function callSignature(name: string, args: unknown): string | undefined {
  const flat = flatJson(args);
  if (flat !== undefined) return `${name}\u0000${flat}`;
  try {
    return `${name}\u0000${JSON.stringify(args, sortKeys) ?? ''}`;
  } catch {
    return undefined;
  }
}

/** Sorted-key JSON of an object whose values are all primitives; undefined for anything else. */
function flatJson(args: unknown): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const record = args as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (const key of keys) {
    const value = record[key];
    switch (typeof value) {
      case 'string':
      case 'number':
      case 'boolean':
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        continue; // JSON leaves these out
      default:
        if (value !== null) return undefined; // nested or bigint: the general path
    }
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return `${out}}`;
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
