import { heapProbe, sampleHeap, type PreparedSystem } from './workload.js';

/** Collects garbage when node runs with --expose-gc (twice, so weak references clear too). */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  gc();
  gc();
}

/**
 * Empties the young generation (one scavenge) when node runs with --expose-gc: a timed run that
 * starts with it empty pays for the collections its own allocation causes, not for a nursery the
 * system before it left half full (bench/RESULTS.md, "What the bench corrects for").
 */
export function emptyNursery(): void {
  (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc?.({ type: 'minor' });
}

/**
 * Waits until the threads that finish a collection are idle: after a `gc()` V8 sweeps the heap on
 * helper threads, and `process.cpuUsage` counts their CPU in whatever runs next, more of it the
 * longer that runs (~0.5 ms in a small heap; see bench/RESULTS.md, "What the bench corrects for"). Waits in 2 ms
 * steps until one passes with under 0.1 ms of CPU, at most 50 steps.
 */
export async function helpersIdle(): Promise<void> {
  for (let k = 0; k < 50; k++) {
    const cpu0 = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const cpu = process.cpuUsage(cpu0);
    if (cpu.user + cpu.system < 100) return;
  }
}

export const hasGc = (): boolean => typeof (globalThis as { gc?: unknown }).gc === 'function';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Elapsed wall-clock and CPU milliseconds (CPU: user + system, all threads of this process). */
export interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

/**
 * Runs `turns` turns back to back. CPU time is the fairer measure on a shared machine: it does
 * not count the time other processes held the cores (wall time does).
 */
export async function timeTurns(system: PreparedSystem, turns: number): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let k = 0; k < turns; k++) await system.turn();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/**
 * How many turns make one sample last about `targetMs` (at least 1), and about how long one turn
 * takes. A first turn that already lasts `targetMs` settles it without more turns.
 */
export async function calibrate(system: PreparedSystem, targetMs: number): Promise<{ turns: number; turnMs: number }> {
  let turns = 1;
  for (;;) {
    const ms = (await timeTurns(system, turns)).wall;
    if (ms >= targetMs / 4 || turns >= 1 << 16) {
      return { turns: Math.max(1, Math.ceil((turns * targetMs) / Math.max(ms, 0.001))), turnMs: ms / turns };
    }
    turns *= 4;
  }
}

/**
 * Peak heap of one turn above the collected baseline: the heap is sampled inside the tool
 * (about 100 samples per turn) and once when the turn resolved, before anything is collected.
 */
export async function peakHeap(system: PreparedSystem, calls: number): Promise<number> {
  collect();
  const base = process.memoryUsage().heapUsed;
  heapProbe.on = true;
  heapProbe.every = Math.max(1, Math.floor(calls / 100));
  heapProbe.count = 0;
  heapProbe.peak = base;
  try {
    await system.turn();
    sampleHeap();
  } finally {
    heapProbe.on = false;
  }
  return heapProbe.peak - base;
}

/**
 * Heap after collection at the end minus at the start of `turns` turns (after a warm-up), and
 * the slope of a least-squares line through 5 collected checkpoints (bytes per turn): one
 * number can be moved by a one-off allocation (JIT code, a lazily built table); a leak shows in
 * both.
 */
export async function heapGrowth(
  turn: () => Promise<void>,
  turns: number,
): Promise<{ growth: number; slope: number; perTurnUs: number }> {
  for (let k = 0; k < Math.min(500, turns); k++) await turn();
  const points: [number, number][] = [];
  collect();
  points.push([0, process.memoryUsage().heapUsed]);
  let elapsed = 0;
  for (let q = 1; q <= 4; q++) {
    const upTo = Math.round((turns * q) / 4);
    const t0 = performance.now();
    for (let k = points[points.length - 1][0]; k < upTo; k++) await turn();
    elapsed += performance.now() - t0;
    collect();
    points.push([upTo, process.memoryUsage().heapUsed]);
  }
  const mx = points.reduce((a, p) => a + p[0], 0) / points.length;
  const my = points.reduce((a, p) => a + p[1], 0) / points.length;
  const slope = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0) / points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return { growth: points[points.length - 1][1] - points[0][1], slope, perTurnUs: (elapsed * 1000) / turns };
}

/** Formats a number with `digits` significant-ish decimals. */
export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(Math.max(0, digits - 1));
  return value.toFixed(digits);
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 && bytes > -10 * 1024 ? 1 : 0)} KB`;
}
