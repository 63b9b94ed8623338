import type { ParsedToolCall } from '../provider.js';
import { callsFromJson } from './call-shape.js';
import { isExample } from './example-guard.js';
import { asciiLower, Finder, skipSpace, trimEnd, type ScanMeter } from './finder.js';
import { decodeJson, jsonExtent, parseJsonSpan } from './json-extent.js';
import { markupCall } from './xml-calls.js';
import { stripThink } from './strip-think.js';

/** The calls found in a response, and whether something that looked like a call could not be read. */
export interface TextParseResult {
  readonly calls: ParsedToolCall[];
  readonly malformed: boolean;
}

/** A stretch of text that is protocol: the calls it holds, or why it could not be read. */
type Segment = { readonly end: number; readonly calls: readonly ParsedToolCall[]; readonly malformed?: string };

const TAGS = ['<tool_calls>', '<tool_call>', '<toolcall>', '<tool-call>'];
const CLOSE_TAILS = ['_calls>', '_call>', 'call>', '-call>'];
const FENCES = ['tool_calls', 'tool_call', 'toolcall', 'tool-call'];

/**
 * Finds the tool calls a model wrote as text. Supported forms, in document order:
 * `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (also `<tool_calls>`, `<toolcall>`,
 * `<tool-call>`; a body may hold several JSON calls or a list), `<invoke name="x"><parameter
 * name="k">v</parameter></invoke>`, `<function=x><parameter=k>v</parameter></function>`, fenced
 * ```` ```tool_call ```` blocks, and — when none of those appear — a whole response that is a JSON
 * call, a list of calls or `{"tool_calls": [...]}`. `<think>` blocks are stripped first; calls
 * introduced as an example ("for example", "e.g.") are skipped; stringified arguments are decoded;
 * names not in `knownTools` are dropped. Never throws; one forward pass (linear time).
 *
 * @example
 * ```ts
 * parseTextToolCalls('Checking. <tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>', ['weather']);
 * // [{ name: 'weather', arguments: { city: 'Oslo' } }]
 * ```
 * @param text the model's complete response text.
 * @param knownTools the names the turn may call; other names are dropped.
 */
export function parseTextToolCalls(text: string, knownTools: readonly string[]): ParsedToolCall[] {
  return scanTextToolCalls(text, knownTools).calls;
}

/**
 * `parseTextToolCalls` with the malformed flag: true when text that looked like the protocol
 * could not be read. `meter` counts the characters visited (tests use it to check linear time).
 *
 * @example
 * ```ts
 * scanTextToolCalls('<tool_call>{"name": "x", </tool_call>', ['x']); // { calls: [], malformed: true }
 * ```
 */
export function scanTextToolCalls(text: string, knownTools: Iterable<string>, meter?: ScanMeter): TextParseResult {
  const input = typeof text === 'string' ? text : '';
  const inputLower = asciiLower(input);
  if (meter) meter.steps += input.length;
  const visible = stripThink(input, inputLower, meter);
  const lower = visible === input ? inputLower : asciiLower(visible);
  const finder = new Finder(lower, meter);
  const found: ParsedToolCall[] = [];
  let malformed = false;
  let sawProtocol = false;
  let pos = 0;
  let floor = 0;
  while (pos < lower.length) {
    const lt = finder.find('<', pos);
    const fence = finder.find('```', pos);
    if (lt === -1 && fence === -1) break;
    const at = lt === -1 || (fence !== -1 && fence < lt) ? fence : lt;
    const segment = at === fence ? fencedSegment(visible, finder, at, meter) : taggedSegment(visible, finder, at, meter);
    if (segment === undefined) {
      pos = at + 1;
      continue;
    }
    sawProtocol = true;
    if (!isExample(lower, at, floor)) {
      if (segment.malformed !== undefined) malformed = true;
      for (const call of segment.calls) found.push(call);
    }
    pos = floor = segment.end;
  }
  if (!sawProtocol) {
    const whole = wholeResponse(visible, finder, meter);
    malformed = whole.malformed !== undefined;
    for (const call of whole.calls) found.push(call);
  }
  const known = new Set(knownTools);
  return { calls: found.filter((call) => known.has(call.name)), malformed };
}

/** A tag form at `at` (`<tool_call>` and aliases, `<invoke …>`, `<function=…>`), or undefined. */
function taggedSegment(text: string, finder: Finder, at: number, meter?: ScanMeter): Segment | undefined {
  const lower = finder.text;
  for (const tag of TAGS) {
    if (!lower.startsWith(tag, at)) continue;
    const close = closingTag(finder, at + tag.length);
    const body = bodyCalls(text, finder, at + tag.length, close?.at ?? lower.length, close !== undefined, meter);
    return body && { end: close?.end ?? lower.length, calls: body.calls, malformed: body.malformed };
  }
  if (lower.startsWith('<invoke', at) && /\s/.test(lower.charAt(at + 7))) return markupSegment(text, finder, at, 'invoke', meter);
  if (lower.startsWith('<function=', at)) return markupSegment(text, finder, at, 'function', meter);
  return undefined;
}

/** A fenced block at `at` whose info string is `tool_call` (or an alias), or undefined. */
function fencedSegment(text: string, finder: Finder, at: number, meter?: ScanMeter): Segment | undefined {
  const lower = finder.text;
  const info = at + 3;
  const alias = FENCES.find((name) => lower.startsWith(name, info) && /^(?:\s|$)/.test(lower.charAt(info + name.length)));
  if (alias === undefined) return undefined;
  const start = info + alias.length;
  const close = finder.find('```', start);
  const body = bodyCalls(text, finder, start, close === -1 ? lower.length : close, close !== -1, meter);
  return body && { end: close === -1 ? lower.length : close + 3, calls: body.calls, malformed: body.malformed };
}

function markupSegment(text: string, finder: Finder, at: number, form: 'invoke' | 'function', meter?: ScanMeter): Segment | undefined {
  const markup = markupCall(text, finder, at, form, meter);
  if (markup === undefined) return undefined;
  return markup.call ? { end: markup.end, calls: [markup.call] } : { end: markup.end, calls: [], malformed: markup.malformed };
}

/** The closing tag of a `<tool_call>` (any alias) at or after `from`. */
function closingTag(finder: Finder, from: number): { at: number; end: number } | undefined {
  for (let i = from; ; ) {
    const at = finder.find('</tool', i);
    if (at === -1) return undefined;
    const tail = CLOSE_TAILS.find((t) => finder.text.startsWith(t, at + 6));
    if (tail !== undefined) return { at, end: at + 6 + tail.length };
    i = at + 1;
  }
}

/**
 * The calls in a block body `[start, end)`: JSON calls (optionally in a ```json fence), or
 * `<invoke>`/`<function=>` markup. An unclosed block whose body is not JSON or markup is prose.
 */
function bodyCalls(
  text: string,
  finder: Finder,
  start: number,
  end: number,
  closed: boolean,
  meter?: ScanMeter,
): { calls: readonly ParsedToolCall[]; malformed?: string } | undefined {
  const lower = finder.text;
  let s = skipSpace(lower, start, end, meter);
  if (lower.startsWith('<invoke', s) || lower.startsWith('<function=', s)) {
    const calls: ParsedToolCall[] = [];
    while (lower.startsWith('<invoke', s) || lower.startsWith('<function=', s)) {
      const markup = markupCall(text, finder, s, lower.startsWith('<invoke', s) ? 'invoke' : 'function', meter);
      if (markup === undefined || markup.end > end) return { calls: [], malformed: 'the markup call is not closed inside its block' };
      if (markup.malformed !== undefined) return { calls: [], malformed: markup.malformed };
      calls.push(markup.call);
      s = skipSpace(lower, markup.end, end, meter);
    }
    return { calls };
  }
  let e = trimEnd(lower, s, end, meter);
  if (lower.startsWith('```', s)) {
    const newline = finder.findWithin('\n', s, 64);
    if (newline !== -1 && newline < e) s = skipSpace(lower, newline + 1, e, meter);
    if (e - 3 >= s && lower.startsWith('```', e - 3)) e = trimEnd(lower, s, e - 3, meter);
  }
  const first = lower.charAt(s);
  if (first !== '{' && first !== '[') return closed ? { calls: [], malformed: 'the block does not hold a JSON tool call' } : undefined;
  const calls: ParsedToolCall[] = [];
  while (s < e) {
    const extent = jsonExtent(text, s, e, meter);
    if (extent === undefined) return { calls: [], malformed: 'the JSON in the block is incomplete' };
    const decoded = parseJsonSpan(text, s, extent, meter);
    if (!decoded.ok) return { calls: [], malformed: `the JSON in the block is invalid (${decoded.reason})` };
    const shape = callsFromJson(decoded.value, meter);
    if (!shape.ok) return { calls: [], malformed: shape.reason };
    for (const call of shape.calls) calls.push(call);
    s = nextValue(lower, extent.end, e, meter);
  }
  return { calls };
}

/** The start of the next JSON object or array in `[from, to)`, or `to`. */
function nextValue(lower: string, from: number, to: number, meter?: ScanMeter): number {
  let i = from;
  while (i < to && lower[i] !== '{' && lower[i] !== '[') i++;
  if (meter) meter.steps += i - from + 1;
  return i;
}

/** The whole response as one JSON call, a list of calls, or `{"tool_calls": [...]}`. */
function wholeResponse(text: string, finder: Finder, meter?: ScanMeter): { calls: readonly ParsedToolCall[]; malformed?: string } {
  const lower = finder.text;
  let s = skipSpace(lower, 0, lower.length, meter);
  let e = trimEnd(lower, s, lower.length, meter);
  if (lower.startsWith('```', s)) {
    const newline = finder.findWithin('\n', s, 64);
    if (newline === -1 || e - 3 <= newline || !lower.startsWith('```', e - 3)) return { calls: [] };
    s = skipSpace(lower, newline + 1, e - 3, meter);
    e = trimEnd(lower, s, e - 3, meter);
  }
  const first = lower.charAt(s);
  if (first !== '{' && first !== '[') return { calls: [] };
  const body = lower.slice(s, e);
  const looksLikeCall =
    body.includes('"tool_calls"') || ((body.includes('"name"') || body.includes('"function"')) && (body.includes('"arguments"') || body.includes('"parameters"')));
  if (meter) meter.steps += 5 * body.length;
  const extent = jsonExtent(text, s, e, meter);
  if (extent === undefined || extent.end !== e) return looksLikeCall ? { calls: [], malformed: 'the JSON call is incomplete' } : { calls: [] };
  const decoded = decodeJson(text.slice(s, e), meter);
  const shape = decoded.ok ? callsFromJson(decoded.value, meter) : undefined;
  if (shape?.ok) return { calls: shape.calls };
  return looksLikeCall ? { calls: [], malformed: 'the JSON call could not be read' } : { calls: [] };
}
