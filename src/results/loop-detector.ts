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
  readonly outcome: SlotOutcome;
  /** The rendered result (without receipt, so identical results compare equal). */
  readonly output: string;
}

interface Entry {
  readonly name: string;
  readonly signature: string;
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
    const found = new Map<string, LoopVerdict>();
    for (const result of results) {
      for (const verdict of this.observe(result)) {
        const key = `${verdict.pattern}\u0000${verdict.tool}`;
        const seen = found.get(key);
        if (!seen || RANK[verdict.level] >= RANK[seen.level]) found.set(key, verdict);
      }
    }
    if (found.size === 0) return NO_REPORT;
    const verdicts = [...found.values()];
    const abort = verdicts.find((v) => v.level === 'abort');
    return { verdicts, notes: verdicts.filter((v) => v.level !== 'abort').map((v) => v.text), abort };
  }

  /** Records one result as a batch of its own; returns what it completed (nothing for failed or ignored calls). */
  record(result: LoopObservation): LoopVerdict[] {
    this.batch++;
    return this.observe(result);
  }

  private observe(result: LoopObservation): LoopVerdict[] {
    if (!this.knobs.enabled || result.outcome !== 'executed' || this.ignore.has(result.name)) return [];
    const signature = `${result.name}\u0000${canonicalJson(result.args)}`;
    const entry: Entry = { name: result.name, signature, output: result.output, batch: this.batch };
    this.window.push(entry);
    if (this.window.length > this.size) this.window.shift();
    const verdicts: LoopVerdict[] = [];
    this.repeat(entry, verdicts);
    this.pingPong(entry, verdicts);
    this.noProgress(entry, verdicts);
    return verdicts;
  }

  private repeat(entry: Entry, out: LoopVerdict[]): void {
    let n = 0;
    for (const e of this.window) if (e.signature === entry.signature) n++;
    const level = levelOf(n, this.thresholds.repeat);
    if (!level) return;
    const text =
      level === 'warning' ? loopTexts.repeatWarning(entry.name, n) : level === 'blocked' ? loopTexts.repeatBlocked(entry.name, n) : loopTexts.repeatAbort(entry.name, n);
    out.push({ pattern: 'repeat', level, tool: entry.name, count: n, text });
  }

  private pingPong(entry: Entry, out: LoopVerdict[]): void {
    const w = this.window;
    const last = w.length - 1;
    if (last < 3) return;
    const other = w[last - 1];
    if (other.name === entry.name) return;
    let length = 2;
    for (let i = last - 2; i >= 0; i--) {
      const expected = (last - i) % 2 === 0 ? entry : other;
      if (w[i].name !== expected.name || w[i].output !== expected.output) break;
      length++;
    }
    const cycles = Math.floor(length / 2);
    const level = levelOf(cycles, this.thresholds.pingPong);
    if (!level) return;
    const [a, b] = [other.name, entry.name];
    const text =
      level === 'warning'
        ? loopTexts.pingPongWarning(a, b, cycles)
        : level === 'blocked'
          ? loopTexts.pingPongBlocked(a, b, cycles)
          : loopTexts.pingPongAbort(a, b, cycles);
    out.push({ pattern: 'ping-pong', level, tool: entry.name, count: cycles, text });
  }

  private noProgress(entry: Entry, out: LoopVerdict[]): void {
    const signatures = new Set<string>();
    const batches = new Set<number>();
    for (const e of this.window) {
      if (e.name !== entry.name || e.output !== entry.output) continue;
      signatures.add(e.signature);
      batches.add(e.batch);
    }
    const n = batches.size;
    const level = signatures.size > 1 ? levelOf(n, this.thresholds.noProgress) : undefined;
    if (!level) return;
    const text =
      level === 'warning'
        ? loopTexts.noProgressWarning(entry.name, n)
        : level === 'blocked'
          ? loopTexts.noProgressBlocked(entry.name, n)
          : loopTexts.noProgressAbort(entry.name, n);
    out.push({ pattern: 'no-progress', level, tool: entry.name, count: n, text });
  }
}

function levelOf(count: number, t: Readonly<Record<LoopLevel, number>>): LoopLevel | undefined {
  if (count >= t.abort) return 'abort';
  if (count >= t.blocked) return 'blocked';
  if (count >= t.warning) return 'warning';
  return undefined;
}
