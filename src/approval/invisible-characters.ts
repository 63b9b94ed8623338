/**
 * Characters a person cannot see, or that move what they see: format characters (`\p{Cf}`:
 * zero-width space / joiners U+200B–U+200D, marks U+200E/U+200F, bidirectional embeddings,
 * overrides and isolates U+202A–U+202E, U+2066–U+2069, U+061C, word joiners U+2060–U+2064,
 * U+FEFF, and the Unicode tag characters), the line and paragraph separators U+2028/U+2029, the
 * whole tag block U+E0000–U+E007F, the combining grapheme joiner U+034F and the blank Hangul
 * fillers. The body of a character class, for a regular expression with the `u` flag.
 *
 * @example
 * ```ts
 * new RegExp(`[${INVISIBLE_CLASS}]`, 'u').test('a\u202Eb'); // true
 * ```
 */
export const INVISIBLE_CLASS = '\\p{Cf}\\p{Zl}\\p{Zp}\\u{E0000}-\\u{E007F}\\u034F\\u115F\\u1160\\u3164\\uFFA0';
