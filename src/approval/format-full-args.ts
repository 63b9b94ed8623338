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
  const chars = [...line];
  if (!(chars.length > width)) return [line];
  const room = Math.max(1, Math.floor(width) - [...prefix].length);
  const first = Math.max(1, Math.floor(width));
  const out = [chars.slice(0, first).join('')];
  for (let at = first; at < chars.length; at += room) out.push(prefix + chars.slice(at, at + room).join(''));
  return out;
}
