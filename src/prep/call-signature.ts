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
  try {
    return `${name}\u0000${JSON.stringify(args, sortKeys) ?? ''}`;
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
