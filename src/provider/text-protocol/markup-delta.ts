import { asciiLower } from './finder.js';

/** Where streamed text stands in the text protocol's markup: text held back, and the block it is in. */
export interface MarkupState {
  /** Text not shown yet: what may still become a tag. */
  readonly held: string;
  /** The closing tag (lowercase) of the block the text is inside; '' outside any. */
  readonly closing: string;
}

/** Outside any block, nothing held: where a response's text starts. */
export const OUTSIDE_MARKUP: MarkupState = Object.freeze({ held: '', closing: '' });

/** The blocks of the text protocol (BEHAVIOUR.md, "Parsing"): each opening tag with its closing one. */
const CLOSING: ReadonlyMap<string, string> = new Map([
  ['<tool_call>', '</tool_call>'],
  ['<tool_calls>', '</tool_calls>'],
  ['<toolcall>', '</toolcall>'],
  ['<tool-call>', '</tool-call>'],
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
]);
const TAGS: readonly string[] = [...CLOSING.keys(), ...CLOSING.values()];
const LONGEST_TAG = Math.max(...TAGS.map((tag) => tag.length));

/**
 * One streamed chunk of model text without the text protocol's markup: blocks (`<tool_call>…
 * </tool_call>`, `<think>…</think>` and their aliases, any case) are left out, a closing tag with
 * no block too, and text that may still become a tag (`<to`) is held in the state until the next
 * chunk tells. Pure, and linear in the chunk; `markupEnd` gives what is held when the text ends.
 *
 * @example
 * ```ts
 * let step = markupDelta(OUTSIDE_MARKUP, 'Checking. <tool'); // text 'Checking. ', '<tool' held
 * step = markupDelta(step.state, '_call>{"name":"w"}</tool_call> Done.'); // text ' Done.'
 * ```
 */
export function markupDelta(state: MarkupState, chunk: string): { readonly state: MarkupState; readonly text: string } {
  const all = state.held + chunk;
  const lower = asciiLower(all);
  let closing = state.closing;
  let text = '';
  let i = 0;
  for (;;) {
    if (closing !== '') {
      const end = lower.indexOf(closing, i);
      if (end < 0) return { state: { held: all.slice(partialTagAt(lower, i, closing)), closing }, text };
      i = end + closing.length;
      closing = '';
      continue;
    }
    const lt = all.indexOf('<', i);
    if (lt < 0) return { state: OUTSIDE_MARKUP, text: text + all.slice(i) };
    text += all.slice(i, lt);
    const head = lower.slice(lt, lt + LONGEST_TAG);
    const tag = TAGS.find((t) => head.startsWith(t));
    if (tag !== undefined) {
      closing = CLOSING.get(tag) ?? ''; // an opening tag starts a block; a stray closing one is dropped
      i = lt + tag.length;
      continue;
    }
    if (TAGS.some((t) => t.startsWith(head))) return { state: { held: all.slice(lt), closing: '' }, text };
    text += '<';
    i = lt + 1;
  }
}

/**
 * What a text's held state shows when the text ends: held text outside a block (it never became
 * a tag); nothing inside one (an unclosed block hides the rest, as `stripThink` does).
 *
 * @example
 * ```ts
 * markupEnd({ held: '<to', closing: '' }); // '<to'
 * ```
 */
export const markupEnd = (state: MarkupState): string => (state.closing === '' ? state.held : '');

/** Where the end of `lower` may begin `tag` (at or after `from`); its length when nowhere. */
function partialTagAt(lower: string, from: number, tag: string): number {
  for (let at = Math.max(from, lower.length - tag.length + 1); at < lower.length; at++) {
    if (tag.startsWith(lower.slice(at))) return at;
  }
  return lower.length;
}
