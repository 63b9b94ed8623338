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
