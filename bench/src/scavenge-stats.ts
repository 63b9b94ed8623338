import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './build-ours.js';

/**
 * What each young-generation collection (scavenge) costs one system in the server regime, and
 * why: server-gc.ts in a child process under V8's `--trace-gc-nvp`, whose line per collection
 * gives its pause, the time its copying took on the main thread and on helper threads, and the
 * bytes that survived it (what the turns in flight kept alive). Only the timed turns count:
 *
 *   node --import tsx bench/src/scavenge-stats.ts [C=100] [seconds=3] [--floor] [--src=<dir>]
 *
 * A scavenge's cost grows with what survives it, and how often one runs grows with what the
 * turns allocate: bench/RESULTS.md, "Session 8". The last line sums the timed turns' scavenges
 * per turn: what they copied within the young generation and what they promoted to the old one
 * (at C=10,000 most of what a turn allocates: "Session 29").
 */
const passed = process.argv.slice(2);
const numbers = passed.filter((a) => !a.startsWith('--'));
const c = Number(numbers[0] ?? 100);
const out = execFileSync(
  process.execPath,
  ['--expose-gc', '--trace-gc-nvp', '--import', 'tsx', join('bench', 'src', 'server-gc.ts'), String(c), numbers[1] ?? '3', ...passed.filter((a) => a.startsWith('--'))],
  { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
const lines = out.split('\n');
// server-gc.ts prints these two lines around its timed turns
const [start, end] = [lines.indexOf('-- timed turns start'), lines.indexOf('-- timed turns end')];
if (start < 0 || end < start) throw new Error('server-gc.ts printed no markers around its timed turns');
const timed = lines.slice(start + 1, end);
const fields = (line: string) => new Map(line.split(/\s+/).flatMap((kv) => (kv.includes('=') ? [kv.split('=') as [string, string]] : [])));
const scavenges = timed.filter((line) => / gc=s /.test(line)).map(fields);
const marks = timed.filter((line) => / gc=(mc|mmc|ms) /.test(line)).length;
const total = (key: string) => scavenges.reduce((sum, f) => sum + Number.parseFloat(f.get(key) ?? '0'), 0);
const mean = (key: string) => total(key) / Math.max(1, scavenges.length);
const summary = lines.find((line) => line.includes('CPU µs/call')) ?? '';
const turns = Number(/: (\d+) turns/.exec(summary)?.[1] ?? Number.NaN);
console.log(summary);
console.log(`  scavenges: ${scavenges.length} (${((scavenges.length / turns) * 1000).toFixed(1)} per 1000 turns); mark-compacts: ${marks}`);
console.log(`  per scavenge: pause ${mean('pause').toFixed(2)} ms, copying ${mean('scavenge.parallel').toFixed(2)} ms on the main thread + ${mean('background.scavenge.parallel').toFixed(2)} ms on helpers`);
console.log(`  per scavenge: ${(mean('allocated') / 1048576).toFixed(1)} MB allocated since the last, ${(mean('new_space_survived') / 1024).toFixed(0)} KB survived = ${(mean('new_space_survived') / c).toFixed(0)} B per conversation in flight`);
console.log(`  per turn: ${(total('new_space_survived') / turns / 1024).toFixed(1)} KB copied within the young generation, ${(total('promoted') / turns / 1024).toFixed(1)} KB promoted`);
