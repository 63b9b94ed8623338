import { Session } from 'node:inspector/promises';
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

interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
}
const bySite = new Map<string, number>();
let total = 0;
const walk = (node: SampledNode): void => {
  const { functionName, url, lineNumber } = node.callFrame;
  const site = `${functionName || '(anonymous)'}  ${url.replace(/.*node_modules\//, '')}:${lineNumber + 1}`;
  total += node.selfSize;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head as unknown as SampledNode);
const perCall = (bytes: number) => (bytes / (turns * n)).toFixed(0).padStart(6);
console.log(`ours, N=${n}: ${turns} turns sampled, ${perCall(total).trim()} B allocated per call\n`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${perCall(bytes)} B/call  ${site}`);
