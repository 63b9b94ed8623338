import { fmt } from './measure.js';

/** How long one system's turn of `n` calls takes. */
export interface TurnTime {
  readonly n: number;
  readonly ms: number;
}

/** A system left out of one size: how long its turn took, or would take as projected from an earlier size's (`from`). */
export interface Skipped {
  readonly ms: number;
  readonly from?: TurnTime;
}

/**
 * A turn's time at `n` calls, from the turns measured at smaller sizes (ascending): the last one
 * grown as it grew from the one before (at least in proportion to N). With none measured, 0.
 *
 * @example
 * ```ts
 * projectTurnMs([{ n: 100, ms: 80 }, { n: 1000, ms: 7_600 }], 10_000); // ~720,000: it grows with N²
 * ```
 */
export function projectTurnMs(measured: readonly TurnTime[], n: number): number {
  const last = measured[measured.length - 1];
  if (last === undefined) return 0;
  const before = measured[measured.length - 2];
  const exponent = before === undefined ? 1 : Math.max(1, Math.log(last.ms / before.ms) / Math.log(last.n / before.n));
  return last.ms * (n / last.n) ** exponent;
}

/** What a table says of a system left out of a size. */
export const skippedText = (s: Skipped) =>
  s.from === undefined ? `left out: a turn took ${fmt(s.ms / 1000)} s` : `left out: ~${fmt(s.ms / 1000)} s a turn (${fmt(s.from.ms / 1000)} s at N=${s.from.n})`;
