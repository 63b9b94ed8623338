import type { SlotOutcome } from '../core/events.js';

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
  // one frozen set per value, shared by the detectors (one per iteration)
  if (m < SHARED) return (shared[m] ??= Object.freeze(thresholdsFor(m)));
  return thresholdsFor(m);
}

const SHARED = 64;
const shared: (LoopThresholds | undefined)[] = [];

function thresholdsFor(m: number): LoopThresholds {
  return {
    repeat: Object.freeze({ warning: m, blocked: m + 1, abort: m + 2 }),
    pingPong: Object.freeze({ warning: m + 1, blocked: m + 2, abort: m + 3 }),
    noProgress: Object.freeze({ warning: m + 2, blocked: m + 3, abort: m + 4 }),
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
