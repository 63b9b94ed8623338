/** C0/C1 controls, DEL and bidirectional overrides: text that could restyle or reorder a terminal line. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Escapes characters that could restyle, hide or reorder what an operator reads (`\n` → `\\n`,
 * ESC → `\\u001b`, …), so a model cannot forge a prompt through its arguments.
 *
 * @example
 * ```ts
 * escapeUnsafe('a\u001b[2Kb'); // 'a\\u001b[2Kb'
 * ```
 */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
