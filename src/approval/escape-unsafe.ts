import { INVISIBLE_CLASS } from './invisible-characters.js';

/**
 * C0/C1 controls and DEL (could restyle a terminal line), and characters that are invisible or
 * reorder text (zero-width, bidirectional controls, U+2028/U+2029, tag characters).
 */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE_CLASS}]`, 'gu');

/**
 * Escapes characters that could restyle, hide or reorder what an operator reads (`\n` → `\\n`,
 * ESC → `\\u001b`, U+202E → `\\u202e`, U+200B → `\\u200b`, a tag character U+E0041 →
 * `\\u{e0041}`), so a model cannot forge, hide or reorder a prompt through its arguments.
 *
 * @example
 * ```ts
 * escapeUnsafe('a\u001b[2Kb');  // 'a\\u001b[2Kb'
 * escapeUnsafe('txt\u202Eexe'); // 'txt\\u202eexe'
 * ```
 */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    const code = ch.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
