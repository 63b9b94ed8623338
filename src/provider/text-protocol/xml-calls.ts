import type { ParsedToolCall } from '../provider.js';
import type { Finder, ScanMeter } from './finder.js';
import { decodeJson } from './json-extent.js';

/** The longest opening tag looked at (`<invoke name="…">`, `<parameter=…>`). */
const MAX_TAG = 512;

/** One call in markup form: its call, or malformed; `end` is the index just past it. */
export type MarkupCall =
  | { readonly end: number; readonly call: ParsedToolCall; readonly malformed?: undefined }
  | { readonly end: number; readonly malformed: string; readonly call?: undefined };

/**
 * Reads `<invoke name="x"><parameter name="k">v</parameter>…</invoke>` (or the
 * `<function=x><parameter=k>v</parameter></function>` form) starting at `at`. `lower` is the
 * ASCII-lowercased text the finder searches; values are read from `text`. Returns undefined when
 * the opening tag is not complete (prose, not markup).
 *
 * @example
 * ```ts
 * import { Finder } from './finder.js';
 * const text = '<invoke name="add"><parameter name="a">1</parameter></invoke>';
 * markupCall(text, new Finder(text), 0, 'invoke'); // { end: 61, call: { name: 'add', arguments: { a: 1 } } }
 * ```
 */
export function markupCall(text: string, finder: Finder, at: number, form: 'invoke' | 'function', meter?: ScanMeter): MarkupCall | undefined {
  const lower = finder.text;
  const tagEnd = finder.findWithin('>', at + 1, MAX_TAG, '<');
  if (tagEnd === -1) return undefined;
  const open = text.slice(at, tagEnd);
  const name = form === 'invoke' ? attribute(open, 'name') : open.slice('<function='.length).trim();
  const closeTag = form === 'invoke' ? '</invoke>' : '</function>';
  const close = finder.find(closeTag, tagEnd + 1);
  if (close === -1) return { end: lower.length, malformed: `<${form}> is not closed` };
  const end = close + closeTag.length;
  if (!name) return { end, malformed: `<${form}> has no tool name` };
  const args: Record<string, unknown> = {};
  let p = tagEnd + 1;
  for (;;) {
    const param = finder.find('<parameter', p);
    if (param === -1 || param >= close) break;
    const paramEnd = finder.findWithin('>', param + 1, MAX_TAG, '<');
    if (paramEnd === -1 || paramEnd >= close) return { end, malformed: 'a <parameter> tag is not complete' };
    const tag = text.slice(param + '<parameter'.length, paramEnd);
    const key = tag.startsWith('=') ? tag.slice(1).trim() : attribute(tag, 'name');
    if (!key) return { end, malformed: 'a <parameter> has no name' };
    const valueEnd = finder.find('</parameter>', paramEnd + 1);
    if (valueEnd === -1 || valueEnd > close) return { end, malformed: `<parameter name="${key}"> is not closed` };
    // defineProperty, not assignment: a parameter named __proto__ must stay a plain own key
    Object.defineProperty(args, key, { value: parameterValue(text.slice(paramEnd + 1, valueEnd), meter), enumerable: true, writable: true, configurable: true });
    p = valueEnd + '</parameter>'.length;
  }
  return { end, call: { name, arguments: args } };
}

/**
 * A parameter's value: JSON objects, arrays, numbers, booleans, null and quoted strings are
 * decoded; anything else is the text itself (one leading and one trailing newline removed).
 */
function parameterValue(raw: string, meter?: ScanMeter): unknown {
  const value = raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
  const trimmed = value.trim();
  if (meter) meter.steps += raw.length + 1;
  if (/^(?:[{["]|-?\d|true$|false$|null$)/.test(trimmed)) {
    const decoded = decodeJson(trimmed, meter);
    if (decoded.ok) return decoded.value;
  }
  return value;
}

/** The value of `key="…"` (or `'…'`, or unquoted) in an opening tag's text. */
function attribute(tag: string, key: string): string | undefined {
  const match = new RegExp(`\\b${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value?.trim() || undefined;
}
