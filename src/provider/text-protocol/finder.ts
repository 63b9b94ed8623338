/** Counts the characters a scan visits: a structural measure of linear time, for tests. */
export interface ScanMeter {
  steps: number;
}

/**
 * Forward substring search over one text that never scans the same stretch twice for the same
 * needle: each needle remembers where it was last searched from and what was found, so a later
 * search from a position at or before that hit is answered without scanning. Total work is at most
 * the text length per needle, whatever the order and number of searches.
 *
 * @example
 * ```ts
 * const finder = new Finder('a <b> <b>');
 * finder.find('<b>', 0); // 2
 * finder.find('<b>', 1); // 2, from memory
 * ```
 */
export class Finder {
  private readonly memory = new Map<string, { from: number; at: number }>();

  constructor(
    readonly text: string,
    private readonly meter?: ScanMeter,
  ) {}

  /** Index of the first `needle` at or after `from`, or -1. */
  find(needle: string, from: number): number {
    const known = this.memory.get(needle);
    if (known !== undefined && from >= known.from && (known.at === -1 || known.at >= from)) return known.at;
    const at = this.text.indexOf(needle, from);
    if (this.meter) this.meter.steps += (at === -1 ? this.text.length : at + needle.length) - from;
    this.memory.set(needle, { from, at });
    return at;
  }

  /**
   * Index of `char` in `[from, from + window)`, or -1 — also -1 when `stop` comes first: a
   * bounded search for the end of a tag that gives up where the next tag begins.
   */
  findWithin(char: string, from: number, window: number, stop?: string): number {
    const end = Math.min(this.text.length, from + window);
    let i = from;
    let at = -1;
    for (; i < end; i++) {
      const c = this.text[i];
      if (c === char) {
        at = i;
        break;
      }
      if (c === stop) break;
    }
    if (this.meter) this.meter.steps += i - from + 1;
    return at;
  }
}

/**
 * Lowercases for case-insensitive tag search so that every index into the result is an index
 * into the input (full Unicode lowercasing can change the length, e.g. 'İ'; then only ASCII
 * letters are lowercased).
 *
 * @example
 * ```ts
 * asciiLower('<TOOL_CALL>İ'); // '<tool_call>İ'
 * ```
 */
export function asciiLower(text: string): string {
  const lowered = text.toLowerCase();
  // Only 'İ' grows when lowercased, and nothing shrinks: the same length means the same indices.
  return lowered.length === text.length ? lowered : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** Index of the first non-whitespace character in `[from, to)`, or `to`. */
export function skipSpace(text: string, from: number, to: number, meter?: ScanMeter): number {
  let i = from;
  while (i < to && isSpace(text.charCodeAt(i))) i++;
  if (meter) meter.steps += i - from + 1;
  return i;
}

/** Index just past the last non-whitespace character in `[from, to)`, or `from`. */
export function trimEnd(text: string, from: number, to: number, meter?: ScanMeter): number {
  let i = to;
  while (i > from && isSpace(text.charCodeAt(i - 1))) i--;
  if (meter) meter.steps += to - i + 1;
  return i;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff;
