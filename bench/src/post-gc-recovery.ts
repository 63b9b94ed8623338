import { floor } from './systems/floor.js';
import { loadOurs, ours } from './systems/ours.js';

/**
 * How long our turns stay slow after a full GC: N calls per turn (cap 8), `warm` turns first,
 * then the CPU and wall µs per call of the steady state, of the turn right after a `gc()`, and of each of
 * the 8 turns that follow one (medians over 7 collections):
 *
 *   node --expose-gc --import tsx bench/src/post-gc-recovery.ts [N=1000] [warm=50] [--floor] [--src=<dir>]
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const n = Number(args[0] ?? 1000);
const warm = Number(args[1] ?? 50);
const src = process.argv.find((a) => a.startsWith('--src='))?.slice(6);
const system = process.argv.includes('--floor') ? floor : ours(await loadOurs(false, src), { label: 'ours (cap 8)', maxParallelTools: 8 });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('needs node --expose-gc');
const prepared = await system.prepare(n);
for (let k = 0; k < warm; k++) await prepared.turn();
/** CPU and wall µs per call of one turn. CPU counts V8's helper threads too (compiling, sweeping). */
const time = async (): Promise<[number, number]> => {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await prepared.turn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return [(cpu.user + cpu.system) / n, (wall * 1000) / n];
};
const median = (values: number[]): number => [...values].sort((x, y) => x - y)[values.length >> 1];
const steady: [number, number][] = [];
for (let k = 0; k < 15; k++) steady.push(await time());
const after: [number, number][][] = [];
for (let r = 0; r < 7; r++) {
  gc();
  const row: [number, number][] = [];
  for (let k = 0; k < 8; k++) row.push(await time());
  after.push(row);
}
for (const [m, label] of [[0, 'CPU'], [1, 'wall']] as const) {
  const curve = Array.from({ length: 8 }, (_, k) => median(after.map((row) => row[k][m])).toFixed(1));
  const still = median(steady.map((t) => t[m])).toFixed(2);
  console.log(`${system.name}, N=${n}, after ${warm} turns: steady ${still} ${label} µs/call; the turns after a gc(): ${curve.join(' ')}`);
}
