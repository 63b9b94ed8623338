import { calibrate, collect, fmt, kb, median, peakHeap, timeTurns } from './measure.js';
import type { PreparedSystem, System } from './workload.js';

export interface OverheadOptions {
  readonly sizes: readonly number[];
  /** Timed runs per system and size (medians are taken over these). */
  readonly runs: number;
  /** About how long one timed run lasts (several turns when turns are short). */
  readonly sampleMs: number;
  /** The system every ratio is relative to (ours). */
  readonly reference: string;
  readonly log: (line: string) => void;
}

/** Per size and system: the timed runs (µs per call) and the peak heap of one turn. */
export interface OverheadResult {
  readonly sizes: readonly number[];
  readonly systems: readonly string[];
  readonly perCall: Map<string, number[]>; // key `${n}|${system}` → µs per call, one per run
  readonly ratios: Map<string, number[]>; // key `${n}|${system}` → reference/system, paired per run
  readonly peak: Map<string, number>;
  readonly turnsPerRun: Map<string, number>;
}

const key = (n: number, system: string) => `${n}|${system}`;

/**
 * Per-call overhead: for each batch size, every system is prepared, warmed up and calibrated,
 * then the systems run interleaved (the order rotates each round; garbage is collected before
 * each run, outside the timing) so load on the machine hits them alike. Ratios are paired: the
 * reference's run divided by the other system's run of the same round.
 */
export async function measureOverhead(systems: readonly System[], options: OverheadOptions): Promise<OverheadResult> {
  const result: OverheadResult = {
    sizes: options.sizes,
    systems: systems.map((s) => s.name),
    perCall: new Map(),
    ratios: new Map(),
    peak: new Map(),
    turnsPerRun: new Map(),
  };
  for (const n of options.sizes) {
    const prepared: PreparedSystem[] = [];
    const turns: number[] = [];
    for (const system of systems) {
      const p = await system.prepare(n);
      await timeTurns(p, 2); // first turns: JIT, lazy init
      const k = await calibrate(p, options.sampleMs);
      prepared.push(p);
      turns.push(k);
      result.turnsPerRun.set(key(n, system.name), k);
    }
    const runs: number[][] = systems.map(() => []);
    for (let round = 0; round < options.runs; round++) {
      for (let j = 0; j < systems.length; j++) {
        const s = (j + round) % systems.length;
        collect();
        const ms = await timeTurns(prepared[s], turns[s]);
        runs[s].push((ms * 1000) / (turns[s] * n));
      }
    }
    const refIndex = systems.findIndex((s) => s.name === options.reference);
    for (let s = 0; s < systems.length; s++) {
      result.perCall.set(key(n, systems[s].name), runs[s]);
      if (refIndex >= 0) result.ratios.set(key(n, systems[s].name), runs[refIndex].map((ref, r) => ref / runs[s][r]));
      result.peak.set(key(n, systems[s].name), await peakHeap(prepared[s], n));
    }
    options.log(
      `  N=${n}: ${systems.map((s, i) => `${s.name} ${fmt(median(runs[i]))} µs/call`).join(', ')}`,
    );
  }
  return result;
}

/** The overhead table: one row per size and system. */
export function overheadTable(r: OverheadResult, reference: string): string {
  const lines = [
    `| N | system | µs/call (median) | min | turns/run | ${reference} ÷ system (paired median) | peak heap / turn |`,
    '|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const n of r.sizes) {
    for (const system of r.systems) {
      const runs = r.perCall.get(key(n, system)) ?? [];
      const ratio = r.ratios.get(key(n, system));
      lines.push(
        `| ${n} | ${system} | ${fmt(median(runs))} | ${fmt(Math.min(...runs))} | ${r.turnsPerRun.get(key(n, system))} | ${
          system === reference || !ratio ? '' : `${fmt(median(ratio))}×`
        } | ${kb(r.peak.get(key(n, system)) ?? NaN)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Scaling: time per turn at the largest size over the next-to-largest (per-call ratio × size ratio). */
export function scalingTable(r: OverheadResult, from = 1000, to = 10000): string {
  if (!r.sizes.includes(from) || !r.sizes.includes(to)) return `(scaling needs N=${from} and N=${to})`;
  const lines = [`| system | time(N=${to}) ÷ time(N=${from}) |`, '|---|---:|'];
  for (const system of r.systems) {
    const a = median(r.perCall.get(key(from, system)) ?? []);
    const b = median(r.perCall.get(key(to, system)) ?? []);
    lines.push(`| ${system} | ${fmt((b * to) / (a * from))} |`);
  }
  return lines.join('\n');
}

/** The headline figures at one size: ours against the floor and the fastest peer. */
export function headline(r: OverheadResult, n: number, reference: string, floorName: string, peers: readonly string[]): string {
  const us = (s: string) => median(r.perCall.get(key(n, s)) ?? []);
  const ratio = (s: string) => median(r.ratios.get(key(n, s)) ?? []);
  const present = peers.filter((p) => r.systems.includes(p));
  const fastest = present.length > 0 ? present.reduce((a, b) => (us(a) <= us(b) ? a : b)) : undefined;
  const lines = [`At N=${n}: ${reference} ${fmt(us(reference))} µs/call.`];
  if (fastest) {
    lines.push(
      `- vs the fastest peer (${fastest}, ${fmt(us(fastest))} µs/call): ${fmt(1 / ratio(fastest))}× faster (target ≥ 2×).`,
    );
  }
  if (r.systems.includes(floorName)) {
    lines.push(`- vs the floor (${fmt(us(floorName))} µs/call): ${fmt(ratio(floorName))}× the floor's time (target ≤ 3×).`);
  }
  return lines.join('\n');
}
