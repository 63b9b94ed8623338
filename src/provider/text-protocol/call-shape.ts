import type { ParsedToolCall } from '../provider.js';
import type { ScanMeter } from './finder.js';
import { decodeJson } from './json-extent.js';

/** Calls read from a decoded JSON value, or why the value is not a tool call. */
export type CallShape = { readonly ok: true; readonly calls: ParsedToolCall[] } | { readonly ok: false; readonly reason: string };

const NAME_KEYS = ['name', 'tool_name', 'tool'] as const;
const ARG_KEYS = ['arguments', 'parameters', 'args', 'input', 'params'] as const;

/**
 * Reads tool calls from a decoded JSON value: a call object `{ "name", "arguments" }` (also
 * `parameters`/`args`/`input`, or OpenAI's `{ "function": { "name", "arguments" } }`), an array of
 * them, or `{ "tool_calls": [...] }`. Arguments given as a JSON string are decoded; missing or
 * null arguments are `{}`; anything but an object is refused.
 *
 * @example
 * ```ts
 * callsFromJson({ name: 'add', arguments: '{"a":1}' }); // { ok: true, calls: [{ name: 'add', arguments: { a: 1 } }] }
 * ```
 */
export function callsFromJson(value: unknown, meter?: ScanMeter): CallShape {
  if (Array.isArray(value)) {
    const calls: ParsedToolCall[] = [];
    for (const item of value) {
      const shape = callsFromJson(item, meter);
      if (!shape.ok) return shape;
      calls.push(...shape.calls);
    }
    return calls.length > 0 ? { ok: true, calls } : { ok: false, reason: 'an empty list of calls' };
  }
  if (!isObject(value)) return { ok: false, reason: 'not a JSON object' };
  if (Array.isArray(value.tool_calls)) return callsFromJson(value.tool_calls, meter);
  const fn = isObject(value.function) ? value.function : undefined;
  const name = pick(fn ?? value, NAME_KEYS);
  if (typeof name !== 'string' || name.trim().length === 0) return { ok: false, reason: 'the call has no tool name' };
  const args = toArguments(pick(fn ?? value, ARG_KEYS), meter);
  if (!args.ok) return args;
  return { ok: true, calls: [{ name: name.trim(), arguments: args.value }] };
}

/**
 * Normalizes call arguments: an object as it is, a JSON string decoded, missing or null as `{}`.
 *
 * @example
 * ```ts
 * toArguments('{"q":"x"}'); // { ok: true, value: { q: 'x' } }
 * ```
 */
export function toArguments(
  raw: unknown,
  meter?: ScanMeter,
): { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly reason: string } {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (isObject(raw)) return { ok: true, value: raw };
  if (typeof raw === 'string') {
    if (raw.trim().length === 0) return { ok: true, value: {} };
    const decoded = decodeJson(raw, meter);
    if (!decoded.ok) return { ok: false, reason: `the arguments string is not valid JSON (${decoded.reason})` };
    if (isObject(decoded.value)) return { ok: true, value: decoded.value };
  }
  return { ok: false, reason: 'the arguments must be a JSON object' };
}

function pick(source: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) if (source[key] !== undefined) return source[key];
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
