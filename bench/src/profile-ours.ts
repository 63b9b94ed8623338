import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { repoRoot } from './build-ours.js';
import { summarize } from './profile-summary.js';
import { loadOurs, ours } from './systems/ours.js';

/**
 * A CPU profile of our loop alone at one batch size, taken by V8's sampling profiler (the one
 * behind `node --cpu-prof`) over the timed turns only, after the build and a warm-up:
 *
 *   npx tsx bench/src/profile-ours.ts [N=1000] [seconds=5] [--cap=10000] [--from-source]
 *   node --expose-gc --import tsx bench/src/profile-ours.ts 1 5 --cap=8 --post-gc   # a full gc() before each turn
 *
 * Writes bench/profiles/ours-N<N>.cpuprofile (open it in Chrome DevTools) and prints the
 * functions and files with the most self time. `node --cpu-prof --import tsx` on this file
 * gives the same picture plus the build and start-up.
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const n = Number(args[0] ?? 1000);
const seconds = Number(args[1] ?? 5);
const cap = Number(process.argv.find((a) => a.startsWith('--cap='))?.slice(6) ?? 10_000);
const loaded = await loadOurs(process.argv.includes('--from-source'), process.argv.find((a) => a.startsWith('--src='))?.slice(6));
const bare = process.argv.includes('--bare'); // every guard and observer off
const prepared = await ours(loaded, { label: 'ours', maxParallelTools: cap, bare }).prepare(n);
for (let k = 0; k < 20; k++) await prepared.turn();

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const gc = process.argv.includes('--post-gc') ? (globalThis as { gc?: () => void }).gc : undefined;
if (process.argv.includes('--post-gc') && !gc) throw new Error('--post-gc needs node --expose-gc');
let turns = 0;
let elapsed = 0;
while (elapsed < seconds * 1000) {
  gc?.(); // its own time is not counted in µs/call (it shows in the profile as gc)
  const t0 = performance.now();
  await prepared.turn();
  elapsed += performance.now() - t0;
  turns++;
}
const { profile } = await session.post('Profiler.stop');
session.disconnect();

const dir = join(repoRoot, 'bench', 'profiles');
mkdirSync(dir, { recursive: true });
const file = join(dir, `ours-N${n}${gc ? '-post-gc' : ''}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
console.log(`ours, N=${n}, cap ${cap}${gc ? ', gc() before each turn' : ''}: ${turns} turns, ${((elapsed * 1000) / (turns * n)).toFixed(2)} µs/call (${loaded.from}, profiled)`);
console.log(`profile: ${file}\n`);
console.log(summarize(file, Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 40)));
