import { MAYBE_SECRET } from './scrub-rules.js';

/**
 * Finds `MAYBE_SECRET`'s words in a text faster than the regular expression alone
 * (bench/RESULTS.md, "Choices in src/ made for speed"): each position's next three
 * characters, folded to a small class each, index a table of the three-character starts a word
 * can have, and only where the table says so does the expression confirm a word. Every word has
 * at least three characters.
 */

/**
 * The index of the first of `MAYBE_SECRET`'s words in `text` at or after `from`, or -1.
 *
 * @example
 * ```ts
 * nextRuleWord('a token here', 0); // 2
 * nextRuleWord('a token here', 3); // -1
 * ```
 */
export const nextRuleWord: (text: string, from: number) => number = scannerOf(buildTables(), new RegExp(MAYBE_SECRET.source, 'iy'));

/**
 * `nextRuleWord` over its tables and the expression that confirms a word at one position: they
 * are constants of this closure, not of the module, which tsup's bundle would make variables
 * (bench/RESULTS.md, "Choices in src/ made for speed").
 *
 * @param tables `CLASS`: an ASCII character's class, 0 when no word has it among its first three
 *   characters (letters folded, as the expression ignores case); `STARTS`: the three-class starts
 *   a word can have, indexed `a << 12 | b << 6 | c`.
 */
function scannerOf(tables: { readonly CLASS: Uint8Array; readonly STARTS: Uint8Array }, word: RegExp): (text: string, from: number) => number {
  const { CLASS, STARTS } = tables;
  const classOf = (code: number): number => (code < 128 ? CLASS[code] : 0);
  return function nextRuleWord(text: string, from: number): number {
    const end = text.length - 2;
    if (from >= end) return -1;
    let start = (classOf(text.charCodeAt(from)) << 6) | classOf(text.charCodeAt(from + 1));
    for (let i = from; i < end; i++) {
      start = ((start << 6) | classOf(text.charCodeAt(i + 2))) & 0x3ffff;
      if (STARTS[start] === 0) continue;
      word.lastIndex = i;
      if (word.test(text)) return i;
    }
    return -1;
  };
}

/**
 * The characters each of a word's first three places accepts, from its source: a literal, an
 * escaped punctuation character (`\/`, `\.`) or a class of characters and ranges (`[pousr]`,
 * `[a-z]`, `[0-9a-f]`). A quantifier after the third place may only repeat it (`{1,3}`, `+`).
 * Anything else in the first three places (a group, an assertion such as `\b`, `.`, a class
 * escape such as `\d`, a negated class, a quantifier) or a third place that may be absent is
 * refused when the module loads, so a word that this reading cannot take fails every test.
 *
 * @example
 * ```ts
 * firstPlaces('gh[pousr]_'); // [['g'], ['h'], ['p', 'o', 'u', 's', 'r']]
 * firstPlaces('\\bkey');     // throws: an assertion
 * ```
 */
export function firstPlaces(word: string): string[][] {
  const refuse = (why: string): never => {
    throw new Error(`rule word ${word}: ${why}; nextRuleWord reads only literals and classes in a word's first three places`);
  };
  const places: string[][] = [];
  let i = 0;
  while (places.length < 3) {
    const c = word[i];
    if (c === undefined) refuse('shorter than three characters');
    if ('(){}*+?|^$.'.includes(c)) refuse(`'${c}' among the first three places`);
    if (c === '\\') {
      if (/[A-Za-z0-9]/.test(word[i + 1] ?? 'x')) refuse(`'\\${word[i + 1]}' is not a literal`);
      places.push([word[i + 1]]);
      i += 2;
    } else if (c === '[') {
      const close = word.indexOf(']', i);
      if (close < 0 || word[i + 1] === '^' || word.slice(i + 1, close).includes('\\')) refuse('a class other than plain characters and ranges');
      const chars: string[] = [];
      for (let k = i + 1; k < close; k++) {
        if (word[k + 1] === '-' && k + 2 < close) {
          for (let code = word.charCodeAt(k); code <= word.charCodeAt(k + 2); code++) chars.push(String.fromCharCode(code));
          k += 2;
        } else chars.push(word[k]);
      }
      places.push(chars);
      i = close + 1;
    } else {
      places.push([c]);
      i += 1;
    }
  }
  if (word[i] === '?' || word[i] === '*' || (word[i] === '{' && word[i + 1] === '0')) refuse('its third place may be absent');
  return places;
}

function buildTables(): { CLASS: Uint8Array; STARTS: Uint8Array } {
  const CLASS = new Uint8Array(128);
  const STARTS = new Uint8Array(1 << 18);
  const words = MAYBE_SECRET.source.split('|').map(firstPlaces);
  let next = 1;
  const fold = (ch: string) => ch.toLowerCase().charCodeAt(0);
  for (const places of words) {
    for (const chars of places) {
      for (const ch of chars) {
        const code = fold(ch);
        if (code >= 128) throw new Error(`rule word character ${ch} is not ASCII`);
        if (CLASS[code] === 0) CLASS[code] = CLASS[ch.toUpperCase().charCodeAt(0)] = next++;
      }
    }
  }
  if (next > 64) throw new Error('rule words use more than 63 distinct characters');
  for (const [a, b, c] of words) {
    for (const x of a) for (const y of b) for (const z of c) STARTS[(CLASS[fold(x)] << 12) | (CLASS[fold(y)] << 6) | CLASS[fold(z)]] = 1;
  }
  return { CLASS, STARTS };
}
