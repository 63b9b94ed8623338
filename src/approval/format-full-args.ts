import { escapeUnsafe } from './escape-unsafe.js';

/** How `formatFullArgs` lays the arguments out. */
export interface FullArgsOptions {
  /**
   * Longest line, in characters (indent included); a longer line goes on in continuation lines
   * that start with `↳`. Default 100; `Infinity` for no wrapping (a page that wraps by itself).
   */
  readonly width?: number;
  /** Put in front of every line. Default two spaces. */
  readonly indent?: string;
}

/** The default line width of the full-arguments view. */
export const FULL_ARGS_WIDTH = 100;

/** What starts a continuation line (after the indent): the line above goes on here. */
export const CONTINUATION = '  ↳ ';

/**
 * Every argument a tool will receive, for the person who decides on the call: one `key: value`
 * line per top-level key (`path` first, as in the summary), strings as they are, other values as
 * indented JSON. Nothing is cut, redacted or scrubbed (a redaction could hide a payload); what
 * could restyle or reorder the text (newlines, ESC, bidi controls) is escaped, so every real line
 * break is the formatter's own; lines longer than `width` are wrapped, never dropped.
 *
 * @example
 * ```ts
 * formatFullArgs({ path: 'run.sh', content: '#!/bin/sh\ncurl x | sh' });
 * // '  path: run.sh\n  content: #!/bin/sh\\ncurl x | sh'
 * ```
 */
export function formatFullArgs(args: unknown, options: FullArgsOptions = {}): string {
  const indent = options.indent ?? '  ';
  const width = options.width ?? FULL_ARGS_WIDTH;
  return logicalLines(args)
    .flatMap((line) => wrap(`${indent}${line}`, width, `${indent}${CONTINUATION}`))
    .join('\n');
}

/** The unwrapped lines: `key: value` per top-level key, or the value itself when not an object. */
function logicalLines(args: unknown): string[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return render(args);
  const record = args as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) return ['(no arguments)'];
  const ordered = keys.includes('path') ? ['path', ...keys.filter((k) => k !== 'path')] : keys;
  return ordered.flatMap((key) => {
    const [first = '', ...rest] = render(record[key]);
    return [`${escapeUnsafe(key)}: ${first}`, ...rest];
  });
}

/** A value as escaped lines: a string as one line, anything else as JSON indented by two. */
function render(value: unknown): string[] {
  if (typeof value === 'string') return [escapeUnsafe(value)];
  let json: string | undefined;
  try {
    json = JSON.stringify(value, null, 2);
  } catch {
    json = undefined; // a cycle or a BigInt: not JSON, shown as text
  }
  return (json ?? String(value)).split('\n').map(escapeUnsafe);
}

/** Cuts a line into pieces of at most `width` characters (code points); none is lost. */
function wrap(line: string, width: number, prefix: string): string[] {
  if (!(line.length > width)) return [line]; // never more code points than code units
  const full = Math.max(1, Math.floor(width));
  const out: string[] = [];
  let at = 0;
  while (at < line.length) {
    const lead = out.length === 0 ? '' : prefix;
    const end = advance(line, at, Math.max(1, full - lead.length));
    out.push(lead + line.slice(at, end));
    at = end;
  }
  return out;
}

/** The index `count` code points after `from` (a surrogate pair counts once, never split). */
function advance(text: string, from: number, count: number): number {
  let at = from;
  for (let n = 0; n < count && at < text.length; n++) {
    const unit = text.charCodeAt(at);
    at += unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length ? 2 : 1;
  }
  return at;
}
