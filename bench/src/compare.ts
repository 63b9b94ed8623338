import { resolve } from 'node:path';
import { buildDir } from './build-ours.js';
import { fmt } from './measure.js';
import { measureOverhead, pairedRatio, perCall } from './overhead.js';
import { measurePostGc, postGcTable } from './post-gc.js';
import { measureServer, serverTables } from './server.js';
import { serverOurs } from './server-systems.js';
import { loadOurs, ours } from './systems/ours.js';

/**
 * Before/after: two copies of the library's sources (e.g. `git archive <commit> src | tar -x -C
 * /tmp/before`), each built like the bench builds src/, run interleaved in one process:
 *
 *   node --expose-gc --import tsx bench/src/compare.ts --a=/tmp/before/src [--b=src] [--sizes=1000,10000] [--runs=9]
 *
 * Prints each one's µs per call (CPU and wall) and the paired ratio a ÷ b (> 1: b is faster).
 * `--regime=post-gc` (a gc() before each turn, its sweeping finished first unless `--at-once`; --sizes, --runs) or `--regime=server` (--c=10,100,
 * --turns=5, --runs=5, --warm=1 untimed turns per conversation first; the 150 MB ballast) compares
 * them in those regimes instead. `--tool-timeout=<ms>` runs every call under that deadline,
 * `--observable-tool` with a tool that returns an Observable, `--async-hook` with an async
 * `beforeToolCall` hook (each: back to back and post-GC).
 */
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const a = option('a');
if (!a) {
  console.error('usage: compare.ts --a=<src dir> [--b=<src dir, default src>] [--sizes=…] [--runs=…] [--cap=10000] [--tool-timeout=<ms>] [--observable-tool] [--async-hook]');
  process.exit(1);
}
const b = option('b') ?? 'src';
const cap = Number(option('cap') ?? 10_000);
/** `--tool-timeout=<ms>`: every call under that deadline (`knobs.toolTimeoutMs`). */
const toolTimeoutMs = option('tool-timeout') === undefined ? undefined : Number(option('tool-timeout'));
/** `--observable-tool`: the tool returns an Observable instead of a promise. */
const observableTool = process.argv.includes('--observable-tool');
/** `--async-hook`: a beforeToolCall hook that answers with a promise. */
const asyncHook = process.argv.includes('--async-hook');
const libA = await loadOurs(false, resolve(a), `${buildDir}-a`);
const libB = await loadOurs(false, resolve(b), `${buildDir}-b`);
const regime = option('regime');
if (regime === 'server') {
  const r = await measureServer([serverOurs(libA, 'a'), serverOurs(libB, 'b')], {
    conversations: (option('c') ?? '10,100').split(',').map(Number),
    runs: Number(option('runs') ?? 5),
    turns: () => Number(option('turns') ?? 5),
    ballastMb: 150,
    warmTurns: Number(option('warm') ?? 1),
    reference: 'a',
    floor: 'a',
    log: () => {},
  });
  console.log(`a = ${resolve(a)}\nb = ${resolve(b)}\n\n${serverTables(r)}`);
  process.exit(0);
}
if (regime === 'post-gc') {
  const sizes = (option('sizes') ?? '1,10,1000').split(',').map(Number);
  const mk = (lib: typeof libA, label: string) => ours(lib, { label, maxParallelTools: cap, toolTimeoutMs, observableTool, asyncHook });
  const r = await measurePostGc([mk(libA, 'a'), mk(libB, 'b')], {
    sizes,
    runs: Number(option('runs') ?? 21),
    settle: !process.argv.includes('--at-once'),
    reference: 'a',
    floor: 'a',
    log: () => {},
  });
  console.log(`a = ${resolve(a)}\nb = ${resolve(b)}\ncap ${cap}\n\n${postGcTable(r)}`);
  process.exit(0);
}
const sysA = ours(libA, { label: 'a', maxParallelTools: cap, toolTimeoutMs, observableTool, asyncHook });
const sysB = ours(libB, { label: 'b', maxParallelTools: cap, toolTimeoutMs, observableTool, asyncHook });
const sizes = (option('sizes') ?? '1,1000,10000').split(',').map(Number);
const r = await measureOverhead([sysA, sysB], {
  sizes,
  runs: Number(option('runs') ?? 9),
  sampleMs: Number(option('sample-ms') ?? 60),
  reference: 'a',
  log: () => {},
});
console.log(`a = ${resolve(a)}\nb = ${resolve(b)}\ncap ${cap}`);
for (const n of sizes) {
  console.log(
    `N=${n}: CPU a ${fmt(perCall(r, n, 'a'))} µs/call, b ${fmt(perCall(r, n, 'b'))} µs/call, a ÷ b ${fmt(pairedRatio(r, n, 'b'))}` +
      ` | wall a ${fmt(perCall(r, n, 'a', 'wall'))}, b ${fmt(perCall(r, n, 'b', 'wall'))}, a ÷ b ${fmt(pairedRatio(r, n, 'b', 'wall'))}`,
  );
}
