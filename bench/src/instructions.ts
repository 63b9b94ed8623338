import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { buildDir, buildOurs, repoRoot } from './build-ours.js';
import { annotated, instructionsByCategory } from './instruction-categories.js';

/**
 * Instructions per turn, counted by callgrind (valgrind): nearly the same count for the same
 * build in every run, so a change of a few percent shows in two runs where CPU time needs a
 * dozen alternated ones (bench/RESULTS.md, "Session 11"). Each source directory is built, then
 * its turns run in a child under callgrind (instructions-turns.ts, bundled into plain
 * JavaScript: the server regime's turn, every wait a setImmediate); `floor` counts the
 * hand-written loop.
 *
 *   node --import tsx bench/src/instructions.ts [--turns=100] [--warm=200] [--c=20] [--runs=1] [--node=<binary>] [--parallel=1] [--by-category] [--batch=N] [--signal | --tracer] <src dir | floor> …
 *
 * The child runs with V8's `--predictable` (one thread, fewer time-based heuristics). Runs of one
 * build mostly agree within 0.5 %, at times 2–3 %, and a whole invocation can come out ~3 %
 * higher or lower than another (the machine's speed still shows somewhere): compare builds
 * within one invocation, with `--runs=2` or more to see the spread; below ~2 % it takes more. `--parallel=2` runs two at a time (callgrind uses one core).
 * `--node` runs the turns under another Node (e.g. .ci/node-matrix/node_modules/node24/bin/node).
 * Each count also says how much of it was V8 optimizing code (`Compiler::CompileOptimized`, with
 * all it calls): a compilation that falls inside the counted turns or not moves a count by several
 * percent (bench/RESULTS.md, "Session 12"), so a change is best read without it.
 * Instructions include V8's own work for the turns: garbage collection, compilation, builtins.
 * `--by-category` also splits each count by kind of work (instruction-categories.ts): the
 * graph's plumbing, the guards, JSON, promises, the clock, V8's collector and compiler, the rest.
 * Cache misses are not counted: they are what the server regime (server.ts) adds.
 * `--batch=N` counts the back-to-back regime's turn instead (one batch of N calls, cap 8, an
 * observer and every guard on; the floor's Promise.all), C of them in a row (use `--c=1`), and
 * reports instructions per call: `--batch=1000 --c=1 --warm=40 --turns=5`.
 * `--signal` gives each turn of ours a fresh AbortController's signal, never aborted (the floor has
 * none), as a server passes each request's. `--tracer` gives each agent of ours an OpenTelemetry tracer
 * (the SDK's BasicTracerProvider, spans dropped at their end: dropping-tracer.ts).
 * `--cache-sim` also simulates the caches (callgrind's `--cache-sim=yes`) and reports misses per
 * turn or call: first-level instruction and data caches as the machine's, and as the last level
 * a 1 MB, 8-way L2 (this machine's per core; `--cache-sim=<bytes>,<ways>,<line>` for another),
 * since callgrind's own reading of the machine's L3 is off in a VM.
 * `--keep=<dir>` (with `--by-category`) keeps each run's callgrind file and V8 perf map in `<dir>`
 * and prints their paths: instructions-diff.ts reads them function by function.
 */
const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const targets = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (targets.length === 0) throw new Error('usage: instructions.ts [--turns=100] [--warm=200] [--c=20] [--runs=1] [--node=<binary>] [--parallel=1] <src dir | floor> …');
const turns = Number(option('turns', '100'));
const warm = Number(option('warm', '200'));
const c = Number(option('c', '20'));
const runCount = Number(option('runs', '1'));
const node = option('node', process.execPath);
const parallel = Number(option('parallel', '1'));
const byCategory = process.argv.includes('--by-category');
const batch = Number(option('batch', '0'));
const signal = process.argv.includes('--signal');
const traced = process.argv.includes('--tracer');
const cacheSim = process.argv.some((a) => a === '--cache-sim' || a.startsWith('--cache-sim='));
const lastLevel = option('cache-sim', '1048576,8,64');
/** What a count is divided by: a turn, or with `--batch` a call. */
const unit = batch > 0 ? 'call' : 'turn';
const units = turns * c * Math.max(batch, 1);
const toUnit = (n: number) => n / units;

const built = new Map<string, string>();
for (const [k, target] of targets.entries()) {
  if (target === 'floor') continue;
  const outDir = join(buildDir, '..', `rx-tool-loop-instructions-${k}`);
  await buildOurs(resolve(target), outDir);
  built.set(target, outDir);
}

// the child as one plain JavaScript file (no loader in the counted process), its packages left to Node
const child = join(buildDir, '..', 'instructions-turns.mjs');
await build({
  entryPoints: [join(repoRoot, 'bench', 'src', 'instructions-turns.ts')],
  outfile: child,
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

/** One run's instructions per turn (per call with `--batch`), and of them V8's optimizing compiler's. */
interface Count {
  readonly perUnit: number;
  readonly compiling: number;
  /** Instructions per turn (or call) by category, with `--by-category`. */
  readonly categories?: Map<string, number>;
  /** With `--by-category`: the JIT functions that ran at least one instruction per turn (or call), and their size. */
  readonly code?: { readonly functions: number; readonly bytes: number };
  /** Cache misses per turn (or call), with `--cache-sim`. */
  readonly misses?: { readonly instructionL1: number; readonly dataL1: number; readonly lastLevel: number };
}

const keep = option('keep', '');
if (keep !== '' && !byCategory) throw new Error('--keep needs --by-category (the perf map names the JIT code)');
const outDir = keep !== '' ? resolve(keep) : mkdtempSync(join(tmpdir(), 'rtl-instructions-'));
mkdirSync(outDir, { recursive: true });
if (keep === '') process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
let runsStarted = 0;

const k = (n: number) => (n / 1000).toFixed(1);

/** Instructions per turn (or call) of one run under callgrind. */
function count(target: string): Promise<Count> {
  const out = join(outDir, `callgrind.${runsStarted++}.out`);
  const args = ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${out}`];
  if (cacheSim) args.push('--cache-sim=yes', `--LL=${lastLevel}`);
  // --perf-basic-prof also turns V8's log on: into the run's own folder, not the repo's
  const perf = byCategory ? ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${out}.v8.log`] : [];
  args.push(resolve(node), '--predictable', ...perf, child, built.get(target) ?? 'floor', String(warm), String(turns), String(c), String(batch), signal ? 'signal' : traced ? 'tracer' : 'none');
  return new Promise((done, fail) => {
    const proc = spawn('valgrind', args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', fail);
    proc.on('close', (code) => {
      // Ir, and with --cache-sim: Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
      const events = /Collected : ([\d ]+)/.exec(err)?.[1].trim().split(' ').map(Number);
      const collected = events?.[0];
      if (code !== 0 || collected === undefined) return fail(new Error(`callgrind run of ${target} failed (exit ${code}):\n${err.slice(-2000)}`));
      const compiling = compilingIn(out);
      let categories: Map<string, number> | undefined;
      let jit: Count['code'];
      if (byCategory) {
        // valgrind runs node in its own process: the map is named after the spawned pid
        const perfMap = `/tmp/perf-${proc.pid}.map`;
        const split = instructionsByCategory(out, perfMap, units);
        categories = perUnitOf(split.categories);
        jit = split.code;
        rmSync(`${out}.v8.log`, { force: true });
        if (keep !== '') {
          copyFileSync(perfMap, `${out}.map`); // the map is in /tmp, perhaps another file system
          console.log(`kept: ${target} ${out} ${out}.map`);
        }
        rmSync(perfMap, { force: true });
      }
      if (keep === '') rmSync(out, { force: true });
      const misses =
        cacheSim && events !== undefined && events.length === 9
          ? { instructionL1: toUnit(events[3]), dataL1: toUnit(events[4] + events[5]), lastLevel: toUnit(events[6] + events[7] + events[8]) }
          : undefined;
      done({ perUnit: toUnit(collected), compiling: toUnit(compiling), categories, code: jit, misses });
    });
  });
}

function perUnitOf(totals: Map<string, number>): Map<string, number> {
  return new Map([...totals].map(([category, n]) => [category, toUnit(n)]));
}

/** What `Compiler::CompileOptimized` cost with all it called (TurboFan, and Maglev on Node 22+). */
function compilingIn(file: string): number {
  let total = 0;
  for (const { instructions, fn } of annotated(file, true)) {
    // the outermost entry only: a recursive one is named with a suffix ('2)
    if (fn.startsWith('v8::internal::Compiler::CompileOptimized(') && !/'\d+$/.test(fn)) total += instructions;
  }
  return total;
}

const jobs = Array.from({ length: runCount }, () => targets).flat();
const results = new Map<string, Count[]>(targets.map((t) => [t, []]));
let nextJob = 0;
const worker = async () => {
  while (nextJob < jobs.length) {
    const target = jobs[nextJob++];
    const counted = await count(target);
    results.get(target)!.push(counted);
    console.log(`${target}: ${k(counted.perUnit)}k instructions per ${unit} (${k(counted.compiling)}k of them optimizing code)`);
  }
};
await Promise.all(Array.from({ length: parallel }, worker));
console.log(`\n| source | instructions per ${unit} (k) | without optimizing code (k) | runs |\n|---|---:|---:|---|`);
for (const [target, values] of results) {
  const mean = (pick: (v: Count) => number) => values.reduce((a, v) => a + pick(v), 0) / values.length;
  const each = values.map((v) => `${k(v.perUnit)} (${k(v.perUnit - v.compiling)})`).join(', ');
  console.log(`| ${target} | ${k(mean((v) => v.perUnit))} | ${k(mean((v) => v.perUnit - v.compiling))} | ${each} |`);
}

if (cacheSim) {
  const [size, ways] = lastLevel.split(',');
  console.log(`\n| source | L1 instruction misses per ${unit} | L1 data misses (read + write) | last-level misses (${Number(size) / 1024} KB, ${ways}-way) |\n|---|---:|---:|---:|`);
  for (const [target, values] of results) {
    const mean = (pick: (m: NonNullable<Count['misses']>) => number) => values.reduce((a, v) => a + (v.misses ? pick(v.misses) : 0), 0) / values.length;
    console.log(`| ${target} | ${mean((m) => m.instructionL1).toFixed(1)} | ${mean((m) => m.dataL1).toFixed(1)} | ${mean((m) => m.lastLevel).toFixed(1)} |`);
  }
}

if (byCategory) {
  // each category's mean over the runs, per turn (or call), and its share of the target's count
  const names = [...new Set([...results.values()].flatMap((values) => values.flatMap((v) => [...(v.categories?.keys() ?? [])])))];
  const mean = (values: Count[], category: string) => values.reduce((a, v) => a + (v.categories?.get(category) ?? 0), 0) / values.length;
  const totals = new Map([...results].map(([target, values]) => [target, names.reduce((a, name) => a + mean(values, name), 0)]));
  names.sort((x, y) => mean(results.get(targets[0])!, y) - mean(results.get(targets[0])!, x));
  console.log(`\n| instructions per ${unit} (k) | ${targets.join(' | ')} |\n|---|${targets.map(() => '---:').join('|')}|`);
  for (const name of names) {
    const cells = [...results].map(([target, values]) => `${k(mean(values, name))} (${((100 * mean(values, name)) / totals.get(target)!).toFixed(1)} %)`);
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  const code = [...results].map(([, values]) => values.map((v) => (v.code ? `${v.code.functions} functions, ${(v.code.bytes / 1024).toFixed(1)} KB` : '')).join('; '));
  console.log(`| JIT code run, ≥ 1 instruction per ${unit} | ${code.join(' | ')} |`);
}
