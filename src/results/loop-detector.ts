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
  /**
   * `args` as key-sorted JSON, from the dedup guard, which lets only one call per tool and key
   * through per batch: the detector relies on that (within a batch, observations with the same
   * name must not share an `argsKey`). Without it the detector writes the JSON itself.
   */
  readonly argsKey?: string;
  readonly outcome: SlotOutcome;
  /** The rendered result (without receipt, so identical results compare equal). */
  readonly output: string;
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
  // The window, as a ring of parallel arrays (no object per call): the k-th oldest of `count`
  // entries is at `(start + k) % size`. Names and arguments are kept apart: comparing two flat
  // strings is a memory compare, while a `${name}\u0000${json}` concatenation is a rope that V8
  // compares slowly.
  private readonly names: string[] = [];
  /** The arguments as key-sorted JSON. */
  private readonly argsJson: string[] = [];
  /** The rendered results (without receipt, so identical results compare equal). */
  private readonly outputs: string[] = [];
  /** Which `check` call recorded each entry. */
  private readonly batches: number[] = [];
  private start = 0;
  private count = 0;
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
    const { name, output } = result;
    const args = result.argsKey ?? canonicalJson(result.args);
    const { names, argsJson, outputs, batches, size } = this;
    let at: number;
    if (this.count < size) {
      at = this.count++; // start stays 0 until the ring is full
    } else {
      at = this.start;
      this.start = at + 1 === size ? 0 : at + 1;
    }
    names[at] = name;
    argsJson[at] = args;
    outputs[at] = output;
    batches[at] = this.batch;
    // one pass, oldest first, over the same tool's entries: identical calls (repeat), and same
    // result (no-progress), whose distinct batches are counted as changes of batch number
    // (entries are in batch order)
    let repeats = 0;
    let sameResultBatches = 0;
    let lastBatch = -1;
    let varied = false;
    if (batches[this.start] === this.batch && result.argsKey !== undefined) {
      // The whole window is this batch (a large batch), and the dedup guard let only this call
      // of the tool through with these arguments: no repeat, and one batch (no-progress needs
      // more). Nothing to scan.
      repeats = 1;
      sameResultBatches = 1;
    } else {
      for (let k = 0, i = this.start; k < this.count; k++, i = i + 1 === size ? 0 : i + 1) {
        if (names[i] !== name) continue;
        const same = argsJson[i] === args;
        if (same) repeats++;
        if (outputs[i] !== output) continue;
        if (batches[i] !== lastBatch) {
          sameResultBatches++;
          lastBatch = batches[i];
        }
        if (!same) varied = true;
      }
    }
    let found: LoopVerdict[] | undefined;
    const t = this.thresholds;
    const repeat = levelOf(repeats, t.repeat);
    if (repeat) (found ??= []).push(verdict('repeat', repeat, name, repeats, REPEAT_TEXT[repeat](name, repeats)));
    const cycles = this.pingPongCycles();
    const pingPong = levelOf(cycles, t.pingPong);
    if (pingPong) {
      const other = names[this.at(this.count - 2)];
      (found ??= []).push(verdict('ping-pong', pingPong, name, cycles, PING_PONG_TEXT[pingPong](other, name, cycles)));
    }
    const noProgress = varied ? levelOf(sameResultBatches, t.noProgress) : undefined;
    if (noProgress) {
      const text = NO_PROGRESS_TEXT[noProgress](name, sameResultBatches);
      (found ??= []).push(verdict('no-progress', noProgress, name, sameResultBatches, text));
    }
    return found ?? NONE;
  }

  /** The ring index of the k-th oldest entry. */
  private at(k: number): number {
    const i = this.start + k;
    return i >= this.size ? i - this.size : i;
  }

  /** Full cycles of two tools alternating at the end of the window, each side's result unchanged. */
  private pingPongCycles(): number {
    const last = this.count - 1;
    if (last < 3) return 0;
    const { names, outputs } = this;
    const entry = this.at(last);
    const other = this.at(last - 1);
    if (names[other] === names[entry]) return 0;
    let length = 2;
    for (let k = last - 2; k >= 0; k--) {
      const expected = (last - k) % 2 === 0 ? entry : other;
      const i = this.at(k);
      if (names[i] !== names[expected] || outputs[i] !== outputs[expected]) break;
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
