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
  return write(value, []) ?? 'null';
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
