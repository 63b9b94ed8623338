import { NO_ITEMS } from '../core/no-items.js';
import type { LoopDetectionKnobs } from '../core/knobs.js';
import type { LoopWindow } from '../core/turn-snapshot.js';
import { canonicalJson } from './canonical-json.js';
import { loopThresholds, type LoopLevel, type LoopObservation, type LoopPattern, type LoopReport, type LoopThresholds, type LoopVerdict } from './loop-thresholds.js';
import { loopTexts } from './loop-texts.js';

export { loopThresholds, type LoopLevel, type LoopObservation, type LoopPattern, type LoopReport, type LoopThresholds, type LoopVerdict };

const RANK: Record<LoopLevel, number> = { warning: 1, blocked: 2, abort: 3 };
const NO_REPORT: LoopReport = Object.freeze({ verdicts: [], notes: [] });
const NO_TOOLS: ReadonlySet<string> = new Set();

/**
 * Watches one turn's successful calls over a sliding window for exact repeats, ping-pong and
 * no-progress. Failed, filled and ignored calls are never recorded. One detector per turn.
 *
 * @example
 * ```ts
 * const detector = new LoopDetector(resolved.knobs.loopDetection, snapshot.loopWindow);
 * const { notes, abort } = detector.check(results); // results in slot order
 * const next = { ...snapshot, notes, loopWindow: detector.toWindow() };
 * ```
 */
export class LoopDetector {
  // The window, as a ring of parallel arrays: the k-th oldest of `count` entries is at `(start + k) % size`.
  // No object per call, names and arguments apart (bench/RESULTS.md, "Choices in src/ made for speed").
  private readonly names: string[];
  /** The arguments as key-sorted JSON. */
  private readonly argsJson: string[];
  /** The rendered results (without receipt, so identical results compare equal). */
  private readonly outputs: string[];
  /** Which `check` call recorded each entry. */
  private readonly batches: number[];
  private start = 0;
  private count = 0;
  private readonly size: number;
  private readonly ignore: ReadonlySet<string>;
  private batch = 0;
  readonly thresholds: LoopThresholds;

  /**
   * A detector with an empty window, or with the window of a snapshot (`toWindow`).
   *
   * @param room How many calls it is about to record, if known: the window's arrays are made at
   *   the size they will reach, instead of growing.
   */
  constructor(
    private readonly knobs: LoopDetectionKnobs,
    window?: LoopWindow,
    room = 0,
  ) {
    this.size = Number.isFinite(knobs.window) && knobs.window >= 2 ? Math.floor(knobs.window) : 20;
    this.ignore = knobs.ignoreTools.length > 0 ? new Set(knobs.ignoreTools) : NO_TOOLS; // one per round: no Set when none
    this.thresholds = loopThresholds(knobs.maxRepeats);
    // oldest first, at most the window's size (a snapshot of a wider window keeps its newest)
    const count = window?.names.length ?? 0;
    const keep = Math.min(count, this.size);
    const capacity = Math.min(this.size, keep + room);
    this.names = new Array<string>(capacity);
    this.argsJson = new Array<string>(capacity);
    this.outputs = new Array<string>(capacity);
    this.batches = new Array<number>(capacity);
    if (window !== undefined) {
      for (let k = count - keep, at = 0; k < count; k++, at++) {
        const i = (window.start + k) % count;
        this.names[at] = window.names[i];
        this.argsJson[at] = window.argsJson[i];
        this.outputs[at] = window.outputs[i];
        this.batches[at] = window.batches[i];
      }
      this.count = keep;
      this.batch = window.batch;
    }
  }

  /**
   * One round of a turn, as the loop checks it: a detector for the snapshot's window checks the
   * round's results (in slot order), and the window after them comes back for the next snapshot.
   * The detector is not kept, so its arrays become that window as they are, made at the size
   * they reach: no copy each way. With detection off, the window comes back unchanged.
   *
   * @example
   * ```ts
   * const { report, window } = LoopDetector.checkRound(knobs.loopDetection, snapshot.loopWindow, results);
   * const next = { ...snapshot, notes: report.notes, loopWindow: window };
   * ```
   */
  static checkRound(knobs: LoopDetectionKnobs, window: LoopWindow, results: readonly LoopObservation[]): { report: LoopReport; window: LoopWindow } {
    if (!knobs.enabled) return { report: NO_REPORT, window };
    const detector = new LoopDetector(knobs, window, results.length);
    const report = detector.check(results);
    const { names, argsJson, outputs, batches, count } = detector;
    if (names.length !== count) {
      // a call that was not recorded (failed, ignored) left its room unused
      names.length = argsJson.length = outputs.length = batches.length = count;
    }
    return { report, window: { names, argsJson, outputs, batches, start: detector.start, batch: detector.batch } };
  }

  /** The window as plain data, for a turn snapshot. */
  toWindow(): LoopWindow {
    return {
      names: this.names.slice(0, this.count),
      argsJson: this.argsJson.slice(0, this.count),
      outputs: this.outputs.slice(0, this.count),
      batches: this.batches.slice(0, this.count),
      start: this.start,
      batch: this.batch,
    };
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
    if (!this.knobs.enabled || result.outcome !== 'executed' || this.ignore.has(result.name)) return NO_ITEMS;
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
    return found ?? NO_ITEMS;
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
