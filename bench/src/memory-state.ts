import { arithmeticProbe, memoryProbe } from './machine-probes.js';
import { median, timeTurns } from './measure.js';
import { floor } from './systems/floor.js';
import { loadOurs, ours } from './systems/ours.js';
import type { PreparedSystem } from './workload.js';

/**
 * Whether this machine's memory is slow right now, beside what a turn costs: batches of back-to-back
 * turns (ours, cap 8, and the floor, interleaved), each followed by two probes that touch none of
 * the turns' objects: an arithmetic loop (the core's speed) and random reads over an 8 MB array
 * (how long memory takes to answer). Ends with the ratio in the batches whose memory was fast
 * against those whose memory was slow (above 1.6x the fastest probe).
 *
 *   node --expose-gc --import tsx bench/src/memory-state.ts [N=1000] [batches=12] [--turns=15] [--src=<dir>] [--ours-only]
 *   node --import tsx bench/src/memory-state.ts --probe-only [seconds=20]   # the probes alone, e.g. one process per core with taskset
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const option = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** CPU µs per call of one turn. */
const cpuPerCall = async (system: PreparedSystem, n: number): Promise<number> => ((await timeTurns(system, 1)).cpu * 1000) / n;

if (process.argv.includes('--probe-only')) {
  const end = Date.now() + 1000 * Number(args[0] ?? 20);
  memoryProbe(); // untimed: the first run
  const row: string[] = [];
  while (Date.now() < end) {
    row.push(`${memoryProbe().toFixed(1)}/${arithmeticProbe().toFixed(1)}`);
    const until = Date.now() + 400;
    while (Date.now() < until);
  }
  console.log(`memory ns per read / arithmetic ms, every ~0.45 s (pid ${process.pid}): ${row.join(' ')}`);
} else {
  const n = Number(args[0] ?? 1000);
  const batches = Number(args[1] ?? 12);
  const turns = Number(option('turns') ?? 15);
  const oursPrepared = await ours(await loadOurs(false, option('src')), { label: 'ours (cap 8)', maxParallelTools: 8 }).prepare(n);
  const alone = process.argv.includes('--ours-only');
  const floorPrepared = alone ? undefined : await floor.prepare(n);
  for (let k = 0; k < 50; k++) {
    await oursPrepared.turn();
    await floorPrepared?.turn();
  }
  for (let k = 0; k < 3; k++) memoryProbe();
  const rows: { memory: number; arithmetic: number; ours: number; floor: number }[] = [];
  console.log(`N=${n}, ${turns} turns of ${alone ? 'ours' : 'each system'} per batch (medians); probes after each batch`);
  console.log('batch  memory ns/read  arithmetic ms  ours µs/call  floor µs/call  ours ÷ floor');
  for (let b = 0; b < batches; b++) {
    const o: number[] = [];
    const f: number[] = [];
    for (let k = 0; k < turns; k++) {
      o.push(await cpuPerCall(oursPrepared, n));
      if (floorPrepared) f.push(await cpuPerCall(floorPrepared, n));
    }
    const row = { memory: memoryProbe(), arithmetic: arithmeticProbe(), ours: median(o), floor: floorPrepared ? median(f) : Number.NaN };
    rows.push(row);
    const cells = [row.memory.toFixed(1), row.arithmetic.toFixed(1), row.ours.toFixed(2), floorPrepared ? row.floor.toFixed(2) : '-', floorPrepared ? `${(row.ours / row.floor).toFixed(2)}x` : '-'];
    console.log(`${String(b + 1).padStart(5)}  ${cells.map((c, i) => c.padStart([14, 13, 12, 13, 12][i])).join('  ')}`);
  }
  const fastest = Math.min(...rows.map((r) => r.memory));
  for (const [label, group] of [
    ['memory fast', rows.filter((r) => r.memory <= 1.6 * fastest)],
    ['memory slow', rows.filter((r) => r.memory > 1.6 * fastest)],
  ] as const) {
    if (group.length === 0) {
      console.log(`${label}: no batch`);
      continue;
    }
    const ratio = median(group.map((r) => r.ours / r.floor));
    const cost = (pick: (r: (typeof group)[number]) => number) => median(group.map(pick)).toFixed(2);
    const against = floorPrepared ? `, floor ${cost((r) => r.floor)} µs/call, ours ÷ floor ${ratio.toFixed(2)}x` : ' µs/call';
    console.log(`${label} (${group.length} batches, ${cost((r) => r.memory)} ns/read): ours ${cost((r) => r.ours)}${against}`);
  }
}
