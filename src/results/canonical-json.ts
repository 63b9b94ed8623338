/**
 * Compact JSON with object keys sorted (recursively), so equal arguments always give equal
 * text whatever order the model wrote them in. Follows `JSON.stringify` otherwise (`toJSON`,
 * `undefined`/functions dropped from objects and `null` in arrays); never throws: a cycle
 * renders as `"[Circular]"` and a bigint as its decimal string.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: { d: [2, 1], c: null } }); // '{"a":{"c":null,"d":[2,1]},"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  return flatSortedJson(value) ?? write(value, []) ?? 'null';
}

/**
 * The common case, tool arguments like `{"path":"a.txt","limit":10}` with keys already in
 * order: a plain object of strings, numbers, booleans and nulls whose keys enumerate in sorted
 * order, is exactly what `JSON.stringify` writes (no key array, no sort, no concatenation: the
 * result is the only string made; a hand-written writer was faster alone but left ~100 bytes
 * of intermediate strings per call, which cost more once the heap is large). Anything else
 * (nesting, unsorted keys, bigint, functions, …) → undefined, and `write` runs.
 *
 * @example
 * ```ts
 * flatSortedJson({ a: 1, b: 'x' }); // '{"a":1,"b":"x"}'
 * flatSortedJson({ b: 1, a: 2 });   // undefined: keys out of order
 * ```
 */
export function flatSortedJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && key <= previous) return undefined;
    previous = key;
    const item = (value as Record<string, unknown>)[key];
    const type = typeof item;
    // nested, bigint, function, symbol: the general path (undefined values JSON leaves out)
    if (item !== null && type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'undefined') return undefined;
  }
  return JSON.stringify(value);
}

function write(value: unknown, stack: object[]): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'object':
      break;
    default:
      return undefined; // undefined, function, symbol
  }
  const obj = value as { toJSON?: () => unknown };
  if (typeof obj.toJSON === 'function') return write(obj.toJSON(), stack);
  if (stack.includes(obj)) return '"[Circular]"';
  stack.push(obj);
  let out: string;
  if (Array.isArray(obj)) {
    out = '[';
    for (let i = 0; i < obj.length; i++) out += (i > 0 ? ',' : '') + (write(obj[i], stack) ?? 'null');
    out += ']';
  } else {
    out = '{';
    let first = true;
    for (const key of Object.keys(obj).sort()) {
      const item = write((obj as Record<string, unknown>)[key], stack);
      if (item === undefined) continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
      first = false;
    }
    out += '}';
  }
  stack.pop();
  return out;
}
