import type { ScanMeter } from './finder.js';

/** Deepest nesting accepted in tool arguments; deeper input is treated as malformed. */
export const MAX_JSON_DEPTH = 100;

/** Where a JSON object or array that starts at `start` ends, and how deep it nests. */
export interface JsonExtent {
  /** Index just past the closing bracket. */
  readonly end: number;
  readonly depth: number;
}

/**
 * Finds the end of the JSON object or array that starts at `start` (which must be `{` or `[`),
 * by bracket matching that respects strings and escapes. One pass, no recursion. Returns
 * undefined when the brackets do not balance before `limit` or close with the wrong kind.
 *
 * @example
 * ```ts
 * jsonExtent('{"a": "}"} tail', 0); // { end: 10, depth: 1 }
 * ```
 */
export function jsonExtent(text: string, start: number, limit = text.length, meter?: ScanMeter): JsonExtent | undefined {
  const stack: number[] = [];
  let maxDepth = 0;
  let inString = false;
  let i = start;
  for (; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      stack.push(c === 123 ? 125 : 93);
      if (stack.length > maxDepth) maxDepth = stack.length;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (stack.pop() !== c) break;
      if (stack.length === 0) {
        if (meter) meter.steps += i - start + 1;
        return { end: i + 1, depth: maxDepth };
      }
    }
  }
  if (meter) meter.steps += i - start + 1;
  return undefined;
}

/** A decoded JSON value, or why the text is not one. */
export type Decoded = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/**
 * Decodes JSON text without throwing: objects and arrays must balance and nest at most
 * `MAX_JSON_DEPTH` deep (so nothing downstream recurses without bound).
 *
 * @example
 * ```ts
 * decodeJson('{"a":1}'); // { ok: true, value: { a: 1 } }
 * decodeJson('{"a":');   // { ok: false, reason: … }
 * ```
 */
export function decodeJson(text: string, meter?: ScanMeter): Decoded {
  const trimmed = text.trim();
  if (meter) meter.steps += text.length + 1;
  const first = trimmed.charCodeAt(0);
  if (first === 123 || first === 91) {
    const extent = jsonExtent(trimmed, 0, trimmed.length, meter);
    if (extent === undefined || extent.end !== trimmed.length) return { ok: false, reason: 'unbalanced brackets' };
    if (extent.depth > MAX_JSON_DEPTH) return { ok: false, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Decodes the JSON value `[start, extent.end)` of `text` whose extent is already known (no second
 * bracket scan); too deep nesting is refused like in `decodeJson`.
 *
 * @example
 * ```ts
 * const extent = jsonExtent(text, 0)!;
 * parseJsonSpan(text, 0, extent);
 * ```
 */
export function parseJsonSpan(text: string, start: number, extent: JsonExtent, meter?: ScanMeter): Decoded {
  if (extent.depth > MAX_JSON_DEPTH) return { ok: false, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (meter) meter.steps += extent.end - start;
  try {
    return { ok: true, value: JSON.parse(text.slice(start, extent.end)) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * True when a parsed JSON value nests objects and arrays deeper than `max` levels: the depth
 * `jsonExtent` finds in its text, found from the value instead, which costs by its objects and
 * arrays, not by its characters (an 8 KB string is one value, not 8,000 characters to scan). A
 * walk with a stack of its own that stops at the first level past `max`: a value 200,000 levels
 * deep costs `max` steps, and no recursion.
 *
 * @example
 * ```ts
 * nestedDeeperThan(JSON.parse('{"a":[[1]]}'), 2); // true: three levels
 * ```
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(node)) {
      for (const item of node) {
        if (item === null || typeof item !== 'object') continue;
        pending.push(item as object);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in node) {
      const item = node[key];
      if (item === null || typeof item !== 'object') continue;
      pending.push(item);
      depths.push(depth + 1);
    }
  }
  return false;
}
