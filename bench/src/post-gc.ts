import { memoryProbe } from './machine-probes.js';
import { fmt, helpersIdle, median, timeTurns } from './measure.js';
import { roundOrder } from './overhead.js';
import type { PreparedSystem, System } from './workload.js';

/**
 * The post-GC regime: a full `gc()` before each timed turn (one turn per sample), the systems
 * interleaved in a shuffled order per round. What a turn costs when it runs in a heap that was
 * just collected (a young generation shrunk back, code and feedback possibly flushed), as in a
 * process whose turns are far apart. Needs --expose-gc.
 */
export interface PostGcOptions {
  readonly sizes: readonly number[];
  readonly runs: number;
  /**
   * Wait after the `gc()` until the helper threads have swept the heap (`helpersIdle`): what a
   * process whose turns are far apart does between them. Without it, the sweep's CPU falls into
   * the timed turn, the more of it the longer the turn.
   */
  readonly settle: boolean;
  readonly reference: string;
  readonly floor: string;
  readonly log: (line: string) => void;
}

export interface PostGcResult {
  readonly options: PostGcOptions;
  readonly systems: readonly string[];
  /** `${n}|${system}` → CPU and wall µs per turn of each sample. */
  readonly runs: Map<string, { cpu: number[]; wall: number[] }>;
  /** `memoryProbe()`'s ns per read after each round, every N in turn: whether the machine's memory was slow. */
  readonly memory: number[];
}

const key = (n: number, s: string) => `${n}|${s}`;

/** Untimed turns before a size's rounds, back to back: at least 10, and at least 2,000 calls. */
const warmTurns = (n: number): number => Math.max(10, Math.ceil(2000 / n));

export async function measurePostGc(systems: readonly System[], options: PostGcOptions): Promise<PostGcResult> {
  const gc = (globalThis as { gc?: (options?: unknown) => void }).gc;
  if (!gc) throw new Error('the post-GC regime needs node --expose-gc');
  const result: PostGcResult = { options, systems: systems.map((s) => s.name), runs: new Map(), memory: [] };
  for (const n of options.sizes) {
    const prepared: PreparedSystem[] = [];
    for (const s of systems) {
      const p = await s.prepare(n);
      // untimed: lazy set-up and the JIT, whose background compiling would otherwise fall into the
      // first timed turns' CPU (bench/RESULTS.md, "What the bench corrects for")
      for (let k = 0, turns = warmTurns(n); k < turns; k++) await p.turn();
      prepared.push(p);
      result.runs.set(key(n, s.name), { cpu: [], wall: [] });
    }
    for (let round = 0; round < options.runs; round++) {
      for (const s of roundOrder(systems.length, round)) {
        gc();
        if (options.settle) await helpersIdle();
        const t = await timeTurns(prepared[s], 1);
        const runs = result.runs.get(key(n, systems[s].name));
        runs?.cpu.push(t.cpu * 1000);
        runs?.wall.push(t.wall * 1000);
      }
      result.memory.push(memoryProbe());
    }
    options.log(`  N=${n}: ${systems.map((s) => `${s.name} ${fmt(median(result.runs.get(key(n, s.name))?.cpu ?? []) / n)} CPU µs/call`).join(', ')}`);
  }
  return result;
}

const paired = (a: number[], b: number[]) => median(a.map((v, i) => v / b[i]));

export function postGcTable(r: PostGcResult): string {
  const { reference, floor } = r.options;
  const lines = [
    `| N | system | CPU µs/turn | CPU µs/call | wall µs/call | ÷ ${floor}, CPU (paired) | ${reference} ÷ system, CPU (paired) |`,
    '|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const n of r.options.sizes) {
    const ref = r.runs.get(key(n, reference));
    const fl = r.runs.get(key(n, floor));
    for (const s of r.systems) {
      const runs = r.runs.get(key(n, s));
      if (!runs || !ref || !fl) continue;
      lines.push(
        `| ${n} | ${s} | ${fmt(median(runs.cpu))} | ${fmt(median(runs.cpu) / n)} | ${fmt(median(runs.wall) / n)} | ${
          s === floor ? '' : `${fmt(paired(runs.cpu, fl.cpu))}×`
        } | ${s === reference ? '' : `${fmt(paired(ref.cpu, runs.cpu))}×`} |`,
      );
    }
  }
  const memory = [...r.memory].sort((a, b) => a - b);
  if (memory.length > 0) {
    lines.push(
      '',
      `Memory between rounds (\`memoryProbe\`, ns per read over 8 MB): ${fmt(memory[0], 1)}–${fmt(memory[memory.length - 1], 1)}, median ${fmt(median(memory), 1)}; ` +
        'on the VM of the figures in bench/RESULTS.md, ~5 when memory answered at its usual speed and 10–16 when it was slow.',
    );
  }
  return lines.join('\n');
}
