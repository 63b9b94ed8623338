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
 * The common case, flat tool arguments like `{"path":"a.txt","limit":10}`, written here exactly
 * as `JSON.stringify` writes them with their keys sorted (strings that need escaping go to it):
 * keys already in order cost no key array and no sort; keys in another order (`{"path":…,
 * "content":…}`, as a tool's schema names them) are sorted once, before anything is written,
 * not handed to a replacer function called for every key and value. Faster than `JSON.stringify`
 * for such objects (bench/RESULTS.md, "Choices in src/ made for speed"). Anything else
 * (nesting, integer-like keys out of order, bigint, functions, …) → undefined, and the general
 * path runs.
 *
 * @example
 * ```ts
 * flatSortedJson({ a: 1, b: 'x' }); // '{"a":1,"b":"x"}'
 * flatSortedJson({ b: 1, a: 2 });   // '{"a":2,"b":1}'
 * flatSortedJson({ a: { b: 1 } });  // undefined: nested
 * ```
 */
export function flatSortedJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && key <= previous) return unsortedFlatJson(value as Record<string, unknown>);
    previous = key;
  }
  let out = '';
  for (const key in value) {
    // itemText's cases spelled out: this loop runs for nearly every call, and inlined here they cost less
    const item = (value as Record<string, unknown>)[key];
    let text: string;
    if (typeof item === 'string') text = quoted(item);
    else if (typeof item === 'number') text = Number.isFinite(item) ? String(item) : 'null';
    else if (typeof item === 'boolean') text = item ? 'true' : 'false';
    else if (item === null) text = 'null';
    else if (item === undefined) continue; // JSON leaves it out
    else return undefined; // nested, bigint, function, symbol: the general path
    out = out.length === 0 ? keyText(key).open + text : out + keyText(key).next + text;
  }
  return out.length === 0 ? '{}' : `${out}}`;
}

/**
 * `flatSortedJson` for keys enumerated out of order: sorted first. An integer-like key
 * (`"10"`) is left to the general path, whose writers differ on where it goes.
 */
function unsortedFlatJson(value: Record<string, unknown>): string | undefined {
  const keys = Object.keys(value);
  for (const key of keys) if (isDigit(key.charCodeAt(0))) return undefined;
  sortFew(keys);
  let out = '';
  for (const key of keys) {
    const text = itemText(value[key]);
    if (text === undefined) return undefined;
    if (text === LEFT_OUT) continue;
    out = out.length === 0 ? keyText(key).open + text : out + keyText(key).next + text;
  }
  return out.length === 0 ? '{}' : `${out}}`;
}

/**
 * `keys.sort()` for the few keys of tool arguments: an insertion sort, in the same order (`<` on
 * strings compares UTF-16 code units, as `sort` does), faster than `sort` for two to five keys
 * (bench/RESULTS.md, "Choices in src/ made for speed").
 */
function sortFew(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
}

/** What `itemText` answers for a value JSON leaves out of an object (`undefined`). */
const LEFT_OUT = '';

/** A flat value as JSON, `LEFT_OUT` for `undefined`, or undefined for what only the general path writes. */
function itemText(item: unknown): string | undefined {
  if (typeof item === 'string') return quoted(item);
  if (typeof item === 'number') return Number.isFinite(item) ? String(item) : 'null';
  if (typeof item === 'boolean') return item ? 'true' : 'false';
  if (item === null) return 'null';
  if (item === undefined) return LEFT_OUT;
  return undefined; // nested, bigint, function, symbol
}

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/** A key as the writer puts it: `{"key":` first, `,"key":` after another. */
interface KeyText {
  readonly open: string;
  readonly next: string;
}

/**
 * The key texts of keys seen before: a turn's calls use a tool's few keys again and again, and a
 * lookup costs less than quoting and joining them each time. At most `MAX_KEY_TEXTS` are kept,
 * the first ones seen (keys come from the model).
 */
const keyTexts = new Map<string, KeyText>();
const MAX_KEY_TEXTS = 1024;

function keyText(key: string): KeyText {
  let text = keyTexts.get(key);
  if (text === undefined) {
    const q = quoted(key);
    text = { open: `{${q}:`, next: `,${q}:` };
    if (keyTexts.size < MAX_KEY_TEXTS && key.length <= 64) keyTexts.set(key, text);
  }
  return text;
}

/** A string as JSON writes it: quoted as it is when nothing in it needs escaping. */
function quoted(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // controls, `"`, `\` and surrogates (a lone one is escaped): JSON.stringify's own rules
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
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
