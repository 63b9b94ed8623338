import { asciiLower, Finder, type ScanMeter } from './finder.js';

/**
 * Removes reasoning blocks: `<think>…</think>` and `<thinking>…</thinking>` (any case). An
 * unclosed block hides the rest of the text; a closing tag with no opening one (templates that
 * open the block in the prompt) hides everything before it. One forward pass.
 *
 * @example
 * ```ts
 * stripThink('<think>maybe <tool_call>…</tool_call></think>Done.'); // 'Done.'
 * ```
 */
export function stripThink(text: string, lower = asciiLower(text), meter?: ScanMeter): string {
  if (meter) meter.steps += text.length;
  if (lower.indexOf('think') === -1) return text;
  const finder = new Finder(lower, meter);
  let pos = 0;
  const firstOpen = tagAt(finder, '<think', 0);
  const firstClose = tagAt(finder, '</think', 0);
  if (firstClose !== undefined && (firstOpen === undefined || firstClose.at < firstOpen.at)) pos = firstClose.end;
  let out = '';
  for (;;) {
    const open = tagAt(finder, '<think', pos);
    if (open === undefined) return out + text.slice(pos);
    out += text.slice(pos, open.at);
    const close = tagAt(finder, '</think', open.end);
    if (close === undefined) return out;
    pos = close.end;
  }
}

/** The next `<think>`/`<thinking>` (or closing) tag at or after `from`: its start and end. */
function tagAt(finder: Finder, prefix: string, from: number): { at: number; end: number } | undefined {
  let i = from;
  for (;;) {
    const at = finder.find(prefix, i);
    if (at === -1) return undefined;
    const after = at + prefix.length;
    if (finder.text.startsWith('>', after)) return { at, end: after + 1 };
    if (finder.text.startsWith('ing>', after)) return { at, end: after + 4 };
    i = at + 1;
  }
}
