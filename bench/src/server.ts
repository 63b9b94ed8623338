import { GCProfiler } from 'node:v8';
import { collect, emptyNursery, fmt, median } from './measure.js';
import { roundOrder } from './overhead.js';
import { CALLS_PER_TURN, IterationClock, Samples, type ServerPrepared, type ServerSystem } from './server-workload.js';

/**
 * The server regime: C conversations at once, each running `turns` turns one after another (3
 * iterations × 3 calls, model 2 ms, tools 0–1 ms, as real timers), with ~150 MB of other live
 * objects on the heap. Per system and C: CPU µs per tool call (`process.cpuUsage` over the whole
 * run, every thread of the process), the garbage collector's pauses of the main thread in that
 * run (V8's `GCProfiler`), turns per second (wall), and the p50/p99 of the time the loop adds per
 * iteration (see `IterationClock`). Systems run interleaved, shuffled per round.
 */
export interface ServerOptions {
  readonly conversations: readonly number[];
  readonly runs: number;
  /** Turns each conversation runs in one timed run, for C conversations. */
  readonly turns: (c: number) => number;
  readonly ballastMb: number;
  /**
   * Untimed turns per conversation, for 100 conversations, once before any C's timed runs;
   * every C then gets one more, for its own lazy set-up. One warms up lazy set-up; Node 24 keeps
   * optimizing a turn's functions for its first ~12,000 turns, Node 20 for ~4,500 (bench/RESULTS.md,
   * "What the bench corrects for"), so 150 measures a process whose JIT has settled. Warmed once, the first C is
   * measured in the same state as the later ones, so the growth with C is not read against a
   * reference still paying for its warm-up (bench/RESULTS.md, "What the bench corrects for").
   */
  readonly warmTurns: number;
  readonly reference: string;
  readonly floor: string;
  readonly log: (line: string) => void;
}

interface ServerRuns {
  readonly cpu: number[];
  /** The collector's pauses of the main thread, µs per call. */
  readonly gc: number[];
  readonly wall: number[];
  readonly turnsPerS: number[];
  readonly samples: Samples;
  heapGrowth?: number;
}

export interface ServerResult {
  readonly options: ServerOptions;
  readonly systems: readonly string[];
  readonly runs: Map<string, ServerRuns>;
  readonly ballast: number;
  readonly turns: Map<number, number>;
}

const key = (c: number, s: string) => `${c}|${s}`;

/** ~`mb` MB of small live objects (strings, arrays, records), as a server's caches and sessions would hold. */
export function ballast(mb: number): { held: unknown[]; bytes: number } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const held: unknown[] = [];
  while (process.memoryUsage().heapUsed - before < mb * 1024 * 1024) {
    const chunk: unknown[] = new Array(10_000);
    for (let k = 0; k < chunk.length; k++) chunk[k] = { id: k, name: `session-${held.length}-${k}`, tags: [k, 'user'], at: Date.now() };
    held.push(chunk);
  }
  collect();
  return { held, bytes: process.memoryUsage().heapUsed - before };
}

async function runOnce(prepared: ServerPrepared, c: number, turns: number, samples: Samples) {
  const conversations = Array.from({ length: c }, (_, k) => prepared.conversation(`conversation-${k}`, new IterationClock(samples)));
  emptyNursery();
  const profiler = new GCProfiler();
  profiler.start();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    conversations.map(async (conversation) => {
      for (let t = 0; t < turns; t++) await conversation.turn();
    }),
  );
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  let gcUs = 0;
  for (const collection of profiler.stop()?.statistics ?? []) gcUs += collection.cost;
  const calls = c * turns * CALLS_PER_TURN;
  return { cpuPerCall: (cpu.user + cpu.system) / calls, gcPerCall: gcUs / calls, wallPerCall: (wall * 1000) / calls, turnsPerS: (c * turns * 1000) / wall };
}

export async function measureServer(systems: readonly ServerSystem[], options: ServerOptions): Promise<ServerResult> {
  const held = ballast(options.ballastMb);
  const result: ServerResult = { options, systems: systems.map((s) => s.name), runs: new Map(), ballast: held.bytes, turns: new Map() };
  const prepared = await Promise.all(systems.map((s) => s.prepare()));
  // untimed, once: the JIT is the process's, so every C is measured past its warm-up
  for (const p of prepared) await runOnce(p, 100, options.warmTurns, new Samples());
  for (const c of options.conversations) {
    const turns = options.turns(c);
    result.turns.set(c, turns);
    const all: ServerRuns[] = systems.map((s) => {
      const runs: ServerRuns = { cpu: [], gc: [], wall: [], turnsPerS: [], samples: new Samples() };
      result.runs.set(key(c, s.name), runs);
      return runs;
    });
    // untimed: this C's lazy set-up, and the first run's garbage
    for (const p of prepared) await runOnce(p, Math.min(c, 100), 1, new Samples());
    for (let round = 0; round < options.runs; round++) {
      for (const s of roundOrder(systems.length, round)) {
        const last = round === options.runs - 1;
        if (last) collect();
        const heap0 = process.memoryUsage().heapUsed;
        const r = await runOnce(prepared[s], c, turns, all[s].samples);
        if (last) {
          collect();
          all[s].heapGrowth = process.memoryUsage().heapUsed - heap0;
        }
        all[s].cpu.push(r.cpuPerCall);
        all[s].gc.push(r.gcPerCall);
        all[s].wall.push(r.wallPerCall);
        all[s].turnsPerS.push(r.turnsPerS);
      }
    }
    options.log(`  C=${c}: ${systems.map((s, i) => `${s.name} ${fmt(median(all[i].cpu))} CPU µs/call`).join(', ')}`);
  }
  if (held.held.length < 0) console.log('unreachable'); // keeps the ballast alive to here
  return result;
}

const paired = (a: number[], b: number[]) => median(a.map((v, i) => v / b[i]));

/** One table per C, then how CPU per call grows with C, with and without the collector's pauses. */
export function serverTables(r: ServerResult): string {
  const { reference, floor } = r.options;
  const out: string[] = [`Ballast: ${(r.ballast / 1024 / 1024).toFixed(0)} MB of other live objects on the heap.`];
  for (const c of r.options.conversations) {
    const ref = r.runs.get(key(c, reference));
    const turns = r.turns.get(c) ?? 0;
    out.push(
      '',
      `**C = ${c}** (${turns} turns per conversation per run, ${c * turns * CALLS_PER_TURN} calls per run, ${r.options.runs} runs)`,
      '',
      `| system | CPU µs/call | ÷ ${floor}, CPU (paired) | ${reference} ÷ system (paired) | GC pauses µs/call | wall µs/call | turns/s | added per iteration p50 | p99 | heap after − before a run (GC'd) |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const fl = r.runs.get(key(c, floor));
    for (const s of r.systems) {
      const runs = r.runs.get(key(c, s));
      if (!runs || !ref || !fl) continue;
      const growth = runs.heapGrowth === undefined ? '' : `${(runs.heapGrowth / 1024).toFixed(0)} KB`;
      out.push(
        `| ${s} | ${fmt(median(runs.cpu))} | ${s === floor ? '' : `${fmt(paired(runs.cpu, fl.cpu))}×`} | ${
          s === reference ? '' : `${fmt(paired(ref.cpu, runs.cpu))}×`
        } | ${fmt(median(runs.gc))} | ${fmt(median(runs.wall))} | ${fmt(median(runs.turnsPerS), 0)} | ${fmt(runs.samples.quantile(0.5) * 1000)} µs | ${fmt(
          runs.samples.quantile(0.99) * 1000,
        )} µs | ${growth} |`,
      );
    }
    if (ref && fl && reference !== floor) {
      const each = ref.cpu.map((v, i) => v / fl.cpu[i]).sort((x, y) => x - y);
      out.push('', `${reference} ÷ ${floor}, CPU, each run (sorted): ${each.map((v) => `${fmt(v)}×`).join(', ')}`);
    }
  }
  const base = r.options.conversations.includes(100) ? 100 : r.options.conversations[0];
  const growth = (title: string, perRun: (runs: Pick<ServerRuns, 'cpu' | 'gc'>) => number[]) => {
    out.push('', title, '', `| system | ${r.options.conversations.map((c) => `C=${c}`).join(' | ')} |`);
    out.push(`|---|${r.options.conversations.map(() => '---:').join('|')}|`);
    for (const s of r.systems) {
      const at = (c: number) => median(perRun(r.runs.get(key(c, s)) ?? { cpu: [], gc: [] }));
      out.push(`| ${s} | ${r.options.conversations.map((c) => fmt(at(c) / at(base))).join(' | ')} |`);
    }
  };
  growth(`CPU per call at C ÷ CPU per call at C = ${base}:`, (runs) => runs.cpu);
  growth(
    "The same less the collector's main-thread pauses (each run's CPU less its pauses; the collector's helper threads stay in):",
    (runs) => runs.cpu.map((v, i) => v - runs.gc[i]),
  );
  return out.join('\n');
}
