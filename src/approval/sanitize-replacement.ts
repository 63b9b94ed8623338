import { INVISIBLE_CLASS } from './invisible-characters.js';

/** The largest replacement text kept, in UTF-8 bytes (64 KiB). */
export const MAX_REPLACEMENT_BYTES = 65_536;

/**
 * Control characters other than `\n`, `\r` and `\t` (C0, DEL, C1), and characters that are
 * invisible or reorder text (zero-width, bidirectional controls, U+2028/U+2029, tag characters).
 */
const REMOVED = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${INVISIBLE_CLASS}]`, 'gu');

const encoder = new TextEncoder();

/**
 * Makes an operator's replacement text safe to hand the model as a tool result: control
 * characters removed except newline, carriage return and tab, and so are characters that hide or
 * reorder text (zero-width characters, bidirectional controls, U+2028/U+2029, Unicode tag
 * characters; see `INVISIBLE_CLASS`), then cut to 65,536 UTF-8 bytes on a character boundary.
 *
 * @example
 * ```ts
 * sanitizeReplacement('ok\u0007\n');      // 'ok\n'
 * sanitizeReplacement('a\u202Eb\u200Bc'); // 'abc'
 * ```
 */
export function sanitizeReplacement(text: string): string {
  const clean = text.replace(REMOVED, '');
  if (clean.length * 3 <= MAX_REPLACEMENT_BYTES) return clean; // a UTF-16 unit is at most 3 UTF-8 bytes
  const { read } = encoder.encodeInto(clean, new Uint8Array(MAX_REPLACEMENT_BYTES)); // whole characters only
  return clean.slice(0, read);
}
