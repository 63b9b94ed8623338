import { asciiLower, Finder, type ScanMeter } from './finder.js';

/**
 * Removes reasoning blocks: `<think>…</think>` and `<thinking>…</thinking>` (any case), nested
 * ones counted by depth, so a block ends only at the closing tag that matches its opening one.
 * An unclosed block hides the rest of the text; a closing tag with no opening one (templates that
 * open the block in the prompt) hides everything before it. One forward pass.
 *
 * @example
 * ```ts
 * stripThink('<think>maybe <tool_call>…</tool_call></think>Done.');           // 'Done.'
 * stripThink('<think>a <think>b</think> <tool_call>…</tool_call> </think>ok'); // 'ok'
 * ```
 */
export function stripThink(text: string, lower = asciiLower(text), meter?: ScanMeter): string {
  if (meter) meter.steps += text.length;
  if (lower.indexOf('think') === -1) return text;
  const finder = new Finder(lower, meter);
  let out = '';
  let pos = 0; // start of the visible text not yet copied to `out`
  let depth = 0;
  let i = 0;
  for (;;) {
    const open = tagAt(finder, '<think', i);
    const close = tagAt(finder, '</think', i);
    if (close === undefined || (open !== undefined && open.at < close.at)) {
      if (open === undefined) return depth > 0 ? out : out + text.slice(pos);
      if (depth === 0) out += text.slice(pos, open.at);
      depth += 1;
      i = open.end;
      continue;
    }
    if (depth === 0) out = ''; // no opening tag: the block began before the text
    else depth -= 1;
    if (depth === 0) pos = close.end;
    i = close.end;
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
