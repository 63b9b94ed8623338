import { Session } from 'node:inspector/promises';
import { allocationBySite, topSites } from './alloc-sites.js';
import { loadOurs, ours } from './systems/ours.js';

/**
 * Where our loop allocates: V8's sampling heap profiler over the timed turns of one batch size
 * (after a warm-up), objects collected by minor and major GCs included, so the figures are bytes
 * allocated per call (not retained), attributed to the allocating function of the tsup bundle:
 *
 *   npx tsx bench/src/alloc-ours.ts [N=1000] [seconds=4] [--top=25]
 *
 * Sampling slows the loop down a lot; only the bytes per call are meaningful, not the time.
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const n = Number(args[0] ?? 1000);
const seconds = Number(args[1] ?? 4);
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const bare = process.argv.includes('--bare'); // every guard and observer off
const prepared = await ours(await loadOurs(false), { label: 'ours', maxParallelTools: 10_000, bare }).prepare(n);
for (let k = 0; k < 20; k++) await prepared.turn();

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
// the includeObjectsCollectedBy… options are newer than @types/node's copy of the protocol
const sampling = { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
await session.post('HeapProfiler.startSampling', sampling);
let turns = 0;
const start = performance.now();
while (performance.now() - start < seconds * 1000) {
  await prepared.turn();
  turns++;
}
const { profile } = await session.post('HeapProfiler.stopSampling');
session.disconnect();

const { total, bySite } = allocationBySite(profile.head);
console.log(`ours, N=${n}: ${turns} turns sampled, ${(total / (turns * n)).toFixed(0)} B allocated per call\n`);
console.log(topSites(bySite, turns * n, top));
