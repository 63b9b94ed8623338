import { calibrate, fmt, kb, median, peakHeap, timeTurns } from './measure.js';
import type { PreparedSystem, System } from './workload.js';
import { projectTurnMs, type Skipped, skippedText } from './turn-projection.js';

export interface OverheadOptions {
  readonly sizes: readonly number[];
  /** Timed runs per system and size (medians are taken over these). */
  readonly runs: number;
  /** About how long one timed run lasts (several turns when turns are short). */
  readonly sampleMs: number;
  /** The system every ratio is relative to (ours). */
  readonly reference: string;
  readonly log: (line: string) => void;
  /** No untimed warm-up turns before a run when one turn takes longer than this. */
  readonly skipWarmAboveMs?: number;
  /** About how long the untimed warm-up before each timed run lasts (default 50 ms). */
  readonly warmMs?: number;
  /**
   * A system is left out of a size whose turn would take longer than this, as projected from
   * its turns at the sizes before (`projectTurnMs`) or as its first turn there took: a peer whose
   * turn grows with the square of N would otherwise hold the run for hours at N=10,000. None by
   * default.
   */
  readonly maxTurnMs?: number;
}

/** One system at one size: µs per call of each timed run, wall-clock and CPU. */
export interface Runs {
  readonly wall: number[];
  readonly cpu: number[];
  /** Turns per timed run. */
  readonly turns: number;
  /** About how long one turn takes (from calibration), ms. */
  readonly turnMs: number;
  /** Peak heap of one turn above the collected baseline, bytes. */
  peak: number;
}

export interface OverheadResult {
  readonly sizes: readonly number[];
  readonly systems: readonly string[];
  readonly reference: string;
  /** Keyed `${n}|${system}`. */
  readonly runs: Map<string, Runs>;
  /** The sizes a system was left out of (`maxTurnMs`), keyed `${n}|${system}`. */
  readonly skipped: Map<string, Skipped>;
}

const key = (n: number, system: string) => `${n}|${system}`;

/** The paired ratio reference ÷ system: run r of the reference over run r of the system, median. */
export function pairedRatio(r: OverheadResult, n: number, system: string, measure: 'wall' | 'cpu' = 'cpu'): number {
  const ref = r.runs.get(key(n, r.reference));
  const other = r.runs.get(key(n, system));
  if (!ref || !other) return NaN;
  return median(ref[measure].map((value, i) => value / other[measure][i]));
}

export const perCall = (r: OverheadResult, n: number, system: string, measure: 'wall' | 'cpu' = 'cpu'): number =>
  median(r.runs.get(key(n, system))?.[measure] ?? []);

/**
 * Per-call overhead: for each batch size, every system is prepared, warmed up and calibrated,
 * then the systems run interleaved (in a different shuffled order each round) so load on the
 * machine hits them alike. Ratios are paired: the reference's run divided by the other system's run of the
 * same round. Before each timed run: untimed warm-up turns of the same system (see `warmTurns`).
 * A system whose turn at a size takes longer than `maxTurnMs` is left out of it (`leftOut`).
 */
export async function measureOverhead(systems: readonly System[], options: OverheadOptions): Promise<OverheadResult> {
  const result: OverheadResult = {
    sizes: options.sizes,
    systems: systems.map((s) => s.name),
    reference: options.reference,
    runs: new Map(),
    skipped: new Map(),
  };
  for (const n of options.sizes) {
    const present: System[] = [];
    const prepared: PreparedSystem[] = [];
    const timed: Runs[] = [];
    const firstMs: number[] = [];
    for (const system of systems) {
      if (leftOut(result, n, system.name, options)) continue;
      const p = await system.prepare(n);
      // First turns: JIT, lazy initialisation (one is enough when a turn is long).
      const first = (await timeTurns(p, 1)).wall;
      if (leftOut(result, n, system.name, options, first)) continue; // longer than projected
      if (first < options.sampleMs) await timeTurns(p, 1);
      present.push(system);
      prepared.push(p);
      firstMs.push(first);
    }
    // Calibrated only once every system has run: the first system would otherwise be timed
    // while paying for the garbage of the previous size's peers, and get a few turns per run
    // (short samples, too little warm-up). Each calibration follows ~50 ms of its own turns.
    for (let s = 0; s < present.length; s++) {
      if (options.skipWarmAboveMs === undefined || firstMs[s] <= options.skipWarmAboveMs) await warmFor(prepared[s], 50);
      const { turns, turnMs } = await calibrate(prepared[s], options.sampleMs);
      const runs: Runs = { wall: [], cpu: [], turns, turnMs, peak: NaN };
      timed.push(runs);
      result.runs.set(key(n, present[s].name), runs);
    }
    for (let round = 0; round < options.runs; round++) {
      for (const s of roundOrder(present.length, round)) {
        // Untimed turns first: the garbage (GC debt) the previous system left is mostly paid
        // here, and the timed turns see this system's own steady state; the shuffled order
        // spreads what is left over every system. No forced gc(): after one, our turns ran
        // 35 % (N=1000) to 3x (N=1) slower for more than 150 ms while the floor did not
        // (measured: V8 shrinks the young generation, and a loop whose garbage dies young
        // does not grow it back soon), which would penalise the systems that allocate most.
        const warm = warmTurns(timed[s], options);
        if (warm > 0) await timeTurns(prepared[s], warm);
        const t = await timeTurns(prepared[s], timed[s].turns);
        timed[s].wall.push((t.wall * 1000) / (timed[s].turns * n));
        timed[s].cpu.push((t.cpu * 1000) / (timed[s].turns * n));
      }
    }
    for (let s = 0; s < present.length; s++) timed[s].peak = await peakHeap(prepared[s], n);
    options.log(`  N=${n}: ${present.map((s) => `${s.name} ${fmt(perCall(result, n, s.name))} CPU µs/call`).join(', ')}`);
  }
  return result;
}

/**
 * True (and recorded, and logged) when `system`'s turn at `n` takes longer than `maxTurnMs`: as
 * projected from the sizes before, or as its first turn took (`firstMs`).
 */
function leftOut(r: OverheadResult, n: number, system: string, options: OverheadOptions, firstMs?: number): boolean {
  if (options.maxTurnMs === undefined) return false;
  let skipped: Skipped;
  if (firstMs !== undefined) {
    skipped = { ms: firstMs };
  } else {
    const before = r.sizes.filter((m) => m < n && r.runs.has(key(m, system))).sort((a, b) => a - b);
    const measured = before.map((m) => ({ n: m, ms: (perCall(r, m, system, 'wall') * m) / 1000 }));
    skipped = { ms: projectTurnMs(measured, n), from: measured[measured.length - 1] };
  }
  if (skipped.ms <= options.maxTurnMs) return false;
  r.skipped.set(key(n, system), skipped);
  options.log(`  N=${n}: ${system} ${skippedText(skipped)}`);
  return true;
}

/**
 * The order of the systems in one round: shuffled with a fixed seed per round. A rotation would
 * keep the cyclic order, so each system would always follow the same one and pay for its
 * garbage (ours followed the peer that leaves ~100 MB per turn at N=10000); shuffled, each
 * system follows a mix of the others across rounds.
 */
export function roundOrder(count: number, round: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  let seed = (round + 1) * 0x9e3779b9;
  for (let i = count - 1; i > 0; i--) {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    const j = (seed >>> 0) % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** Untimed turns for about `ms` milliseconds (at least one). */
async function warmFor(system: PreparedSystem, ms: number): Promise<void> {
  const start = performance.now();
  do await system.turn();
  while (performance.now() - start < ms);
}

/**
 * Untimed turns before a timed run: about `warmMs` worth (50 ms by default), at least three
 * turns; none for turns over `skipWarmAboveMs` (quick mode: a 1-second peer turn is mostly its
 * own warm-up). A peer turn at N=10000 leaves 100-150 MB of garbage: its collection (and the
 * write barriers while the old generation is being marked) takes longer than 50 ms, and would
 * otherwise land in the next system's timed turns.
 */
function warmTurns(runs: Runs, options: OverheadOptions): number {
  const turnMs = runs.turnMs;
  if (options.skipWarmAboveMs !== undefined && turnMs > options.skipWarmAboveMs) return 0;
  return Math.max(3, Math.ceil((options.warmMs ?? 50) / Math.max(turnMs, 0.001)));
}

/** The overhead table: one row per size and system. */
export function overheadTable(r: OverheadResult): string {
  const lines = [
    `| N | system | CPU µs/call | wall µs/call | ${r.reference} ÷ system, CPU (paired) | wall (paired) | turns/run | peak heap / turn |`,
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of r.sizes) {
    for (const system of r.systems) {
      const runs = r.runs.get(key(n, system));
      if (!runs) {
        const skipped = r.skipped.get(key(n, system));
        if (skipped) lines.push(`| ${n} | ${system} | ${skippedText(skipped)} |  |  |  |  |  |`);
        continue;
      }
      const self = system === r.reference;
      lines.push(
        `| ${n} | ${system} | ${fmt(perCall(r, n, system))} | ${fmt(perCall(r, n, system, 'wall'))} | ${
          self ? '' : `${fmt(pairedRatio(r, n, system))}×`
        } | ${self ? '' : `${fmt(pairedRatio(r, n, system, 'wall'))}×`} | ${runs.turns} | ${kb(runs.peak)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Scaling: time per turn at `to` calls over time per turn at `from` calls (CPU; linear is to/from). */
export function scalingTable(r: OverheadResult, from = 1000, to = 10000): string {
  if (!r.sizes.includes(from) || !r.sizes.includes(to)) return `(scaling needs N=${from} and N=${to})`;
  const lines = [`| system | time(N=${to}) ÷ time(N=${from}), CPU | wall |`, '|---|---:|---:|'];
  for (const system of r.systems) {
    const skipped = r.skipped.get(key(to, system)) ?? r.skipped.get(key(from, system));
    if (skipped) {
      lines.push(`| ${system} | ${skippedText(skipped)} |  |`);
      continue;
    }
    const cpu = (perCall(r, to, system) * to) / (perCall(r, from, system) * from);
    const wall = (perCall(r, to, system, 'wall') * to) / (perCall(r, from, system, 'wall') * from);
    lines.push(`| ${system} | ${fmt(cpu)} | ${fmt(wall)} |`);
  }
  return lines.join('\n');
}

/** The headline figures at one size: ours against the floor and the fastest peer (CPU time). */
export function headline(r: OverheadResult, n: number, floorName: string, peers: readonly string[]): string {
  const us = (s: string) => perCall(r, n, s);
  const present = peers.filter((p) => r.runs.has(key(n, p)));
  const fastest = present.length > 0 ? present.reduce((a, b) => (us(a) <= us(b) ? a : b)) : undefined;
  const lines = [`At N=${n} (CPU time): ${r.reference} ${fmt(us(r.reference))} µs/call (target ≤ ~6).`];
  if (fastest) {
    lines.push(
      `- vs the fastest peer (${fastest}, ${fmt(us(fastest))} µs/call): ${fmt(1 / pairedRatio(r, n, fastest))}× faster (target ≥ 2×).`,
    );
  }
  if (r.runs.has(key(n, floorName))) {
    lines.push(`- vs the floor (${fmt(us(floorName))} µs/call): ${fmt(pairedRatio(r, n, floorName))}× the floor's time (target ≤ 3×).`);
  }
  return lines.join('\n');
}
