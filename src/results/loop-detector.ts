import type { SlotOutcome } from '../observe/events.js';
import type { LoopDetectionKnobs } from '../turn/knobs.js';
import { canonicalJson } from './canonical-json.js';
import { loopTexts } from './loop-texts.js';

/** The patterns the detector knows. */
export type LoopPattern = 'repeat' | 'ping-pong' | 'no-progress';
/** How bad a pattern has become: a note for the next request, a stronger note, or the end of the turn. */
export type LoopLevel = 'warning' | 'blocked' | 'abort';

/** The count at which each level starts, per pattern. */
export interface LoopThresholds {
  /** Identical calls (same name and arguments) in the window. */
  readonly repeat: Readonly<Record<LoopLevel, number>>;
  /** Full A→B cycles of two tools at the end of the window, each side returning an unchanged result. */
  readonly pingPong: Readonly<Record<LoopLevel, number>>;
  /** Batches in which one tool returned the same result (for at least two different argument sets). */
  readonly noProgress: Readonly<Record<LoopLevel, number>>;
}

/**
 * The thresholds for a `maxRepeats` (m): an exact repeat warns at m calls in the window, is
 * blocked above m and aborts at m + 2; ping-pong warns at m + 1 cycles, is blocked at m + 2 and
 * aborts at m + 3; no-progress (counted in batches, so a legitimate fan-out within one batch
 * is one step) warns at m + 2, is blocked at m + 3 and aborts at m + 4.
 *
 * @example
 * ```ts
 * loopThresholds(3).repeat; // { warning: 3, blocked: 4, abort: 5 }
 * ```
 */
export function loopThresholds(maxRepeats: number): LoopThresholds {
  const m = Number.isFinite(maxRepeats) && maxRepeats >= 1 ? Math.floor(maxRepeats) : 3;
  return {
    repeat: { warning: m, blocked: m + 1, abort: m + 2 },
    pingPong: { warning: m + 1, blocked: m + 2, abort: m + 3 },
    noProgress: { warning: m + 2, blocked: m + 3, abort: m + 4 },
  };
}

/** What the detector found for one call. */
export interface LoopVerdict {
  readonly pattern: LoopPattern;
  readonly level: LoopLevel;
  /** The tool (ping-pong: the call that completed the pattern). */
  readonly tool: string;
  /** Repeats, cycles or argument sets, per pattern. */
  readonly count: number;
  /** The system note (warning, blocked) or the abort message. */
  readonly text: string;
}

/** The detector's findings for a batch: notes for the next request, and the abort, if any. */
export interface LoopReport {
  readonly verdicts: readonly LoopVerdict[];
  readonly notes: readonly string[];
  readonly abort?: LoopVerdict;
}

/** What the detector reads of a slot result. */
export interface LoopObservation {
  readonly name: string;
  readonly args: unknown;
  /** `args` as key-sorted JSON, when already computed (the dedup guard's); else the detector writes it. */
  readonly argsKey?: string;
  readonly outcome: SlotOutcome;
  /** The rendered result (without receipt, so identical results compare equal). */
  readonly output: string;
}

interface Entry {
  readonly name: string;
  /** The arguments as canonical JSON. Kept apart from the name: comparing two flat strings is a
   * memory compare, while a `${name}\u0000${json}` concatenation is a rope that V8 compares slowly. */
  readonly args: string;
  readonly output: string;
  /** Which `check` call recorded it. */
  readonly batch: number;
}

const RANK: Record<LoopLevel, number> = { warning: 1, blocked: 2, abort: 3 };
const NO_REPORT: LoopReport = Object.freeze({ verdicts: [], notes: [] });

/**
 * Watches one turn's successful calls over a sliding window for exact repeats, ping-pong and
 * no-progress. Failed, filled and ignored calls are never recorded. One detector per turn.
 *
 * @example
 * ```ts
 * const detector = new LoopDetector(resolved.knobs.loopDetection);
 * const { notes, abort } = detector.check(results); // results in slot order
 * turn.notes.push(...notes);
 * ```
 */
export class LoopDetector {
  private readonly window: Entry[] = [];
  private readonly size: number;
  private readonly ignore: ReadonlySet<string>;
  private batch = 0;
  readonly thresholds: LoopThresholds;

  constructor(private readonly knobs: LoopDetectionKnobs) {
    this.size = Number.isFinite(knobs.window) && knobs.window >= 2 ? Math.floor(knobs.window) : 20;
    this.ignore = new Set(knobs.ignoreTools);
    this.thresholds = loopThresholds(knobs.maxRepeats);
  }

  /** Records a batch's results (in slot order) and reports the most severe finding per pattern and call. */
  check(results: readonly LoopObservation[]): LoopReport {
    if (!this.knobs.enabled) return NO_REPORT;
    this.batch++;
    let found: Map<string, LoopVerdict> | undefined;
    for (const result of results) {
      const verdicts = this.observe(result);
      if (verdicts.length === 0) continue;
      found ??= new Map();
      for (const verdict of verdicts) {
        const key = `${verdict.pattern}\u0000${verdict.tool}`;
        const seen = found.get(key);
        if (!seen || RANK[verdict.level] >= RANK[seen.level]) found.set(key, verdict);
      }
    }
    if (!found) return NO_REPORT;
    const verdicts = [...found.values()];
    const abort = verdicts.find((v) => v.level === 'abort');
    return { verdicts, notes: verdicts.filter((v) => v.level !== 'abort').map((v) => v.text), abort };
  }

  /** Records one result as a batch of its own; returns what it completed (nothing for failed or ignored calls). */
  record(result: LoopObservation): LoopVerdict[] {
    this.batch++;
    return [...this.observe(result)];
  }

  private observe(result: LoopObservation): readonly LoopVerdict[] {
    if (!this.knobs.enabled || result.outcome !== 'executed' || this.ignore.has(result.name)) return NONE;
    const args = result.argsKey ?? canonicalJson(result.args);
    const entry: Entry = { name: result.name, args, output: result.output, batch: this.batch };
    const w = this.window;
    w.push(entry);
    if (w.length > this.size) w.shift();
    // one pass over the same tool's entries: identical calls (repeat), and same result
    // (no-progress), whose distinct batches are counted as changes of batch number (entries are
    // in batch order)
    let repeats = 0;
    let batches = 0;
    let lastBatch = -1;
    let varied = false;
    for (const e of w) {
      if (e.name !== entry.name) continue;
      const same = e.args === args;
      if (same) repeats++;
      if (e.output !== entry.output) continue;
      if (e.batch !== lastBatch) {
        batches++;
        lastBatch = e.batch;
      }
      if (!same) varied = true;
    }
    let found: LoopVerdict[] | undefined;
    const t = this.thresholds;
    const repeat = levelOf(repeats, t.repeat);
    if (repeat) (found ??= []).push(verdict('repeat', repeat, entry.name, repeats, REPEAT_TEXT[repeat](entry.name, repeats)));
    const cycles = this.pingPongCycles();
    const pingPong = levelOf(cycles, t.pingPong);
    if (pingPong) {
      const other = w[w.length - 2].name;
      (found ??= []).push(verdict('ping-pong', pingPong, entry.name, cycles, PING_PONG_TEXT[pingPong](other, entry.name, cycles)));
    }
    const noProgress = varied ? levelOf(batches, t.noProgress) : undefined;
    if (noProgress) (found ??= []).push(verdict('no-progress', noProgress, entry.name, batches, NO_PROGRESS_TEXT[noProgress](entry.name, batches)));
    return found ?? NONE;
  }

  /** Full cycles of two tools alternating at the end of the window, each side's result unchanged. */
  private pingPongCycles(): number {
    const w = this.window;
    const last = w.length - 1;
    if (last < 3) return 0;
    const entry = w[last];
    const other = w[last - 1];
    if (other.name === entry.name) return 0;
    let length = 2;
    for (let i = last - 2; i >= 0; i--) {
      const expected = (last - i) % 2 === 0 ? entry : other;
      if (w[i].name !== expected.name || w[i].output !== expected.output) break;
      length++;
    }
    return Math.floor(length / 2);
  }
}

const NONE: readonly LoopVerdict[] = Object.freeze([]);

const REPEAT_TEXT = { warning: loopTexts.repeatWarning, blocked: loopTexts.repeatBlocked, abort: loopTexts.repeatAbort } as const;
const PING_PONG_TEXT = { warning: loopTexts.pingPongWarning, blocked: loopTexts.pingPongBlocked, abort: loopTexts.pingPongAbort } as const;
const NO_PROGRESS_TEXT = { warning: loopTexts.noProgressWarning, blocked: loopTexts.noProgressBlocked, abort: loopTexts.noProgressAbort } as const;

const verdict = (pattern: LoopPattern, level: LoopLevel, tool: string, count: number, text: string): LoopVerdict => ({
  pattern,
  level,
  tool,
  count,
  text,
});

function levelOf(count: number, t: Readonly<Record<LoopLevel, number>>): LoopLevel | undefined {
  if (count >= t.abort) return 'abort';
  if (count >= t.blocked) return 'blocked';
  if (count >= t.warning) return 'warning';
  return undefined;
}
