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
 * order, written as `JSON.stringify` writes it (undefined values left out) in one pass, without
 * a key array or a sort — and without `JSON.stringify` itself, whose set-up costs more than the
 * whole write for a small object. Anything else (nesting, unsorted keys, bigint, functions, …)
 * → undefined, and `write` runs.
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
  let out = '{';
  for (const key in value) {
    if (previous !== undefined && key <= previous) return undefined;
    previous = key;
    const item = (value as Record<string, unknown>)[key];
    let text: string;
    switch (typeof item) {
      case 'string':
        text = quote(item);
        break;
      case 'number':
        text = Number.isFinite(item) ? `${item}` : 'null';
        break;
      case 'boolean':
        text = item ? 'true' : 'false';
        break;
      case 'undefined':
        continue; // JSON leaves it out
      default:
        if (item !== null) return undefined; // nested, bigint, function, symbol: the general path
        text = 'null';
    }
    out += `${out.length > 1 ? ',' : ''}${quote(key)}:${text}`;
  }
  return `${out}}`;
}

/** Characters `JSON.stringify` escapes in a string (a surrogate pair too, to let it decide). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

const quote = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

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
