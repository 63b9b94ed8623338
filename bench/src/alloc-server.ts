import { Session } from 'node:inspector/promises';
import { serverFloor, serverOurs } from './server-systems.js';
import { CALLS_PER_TURN, conversationsAtOnce, Samples } from './server-workload.js';
import { loadOurs } from './systems/ours.js';

/**
 * Where one system allocates in the server regime (server.ts: C conversations at once, model and
 * tools on timers; no ballast, it allocates nothing): V8's sampling heap profiler over `seconds`
 * of turns after one untimed second, objects collected by minor and major GCs included, so the
 * figures are bytes allocated per call (not retained), by allocating function:
 *
 *   node --import tsx bench/src/alloc-server.ts [C=100] [seconds=4] [--floor] [--top=30] [--src=<dir>]
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const c = Number(args[0] ?? 100);
const seconds = Number(args[1] ?? 4);
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 30);
const src = process.argv.find((a) => a.startsWith('--src='))?.slice(6);
const system = process.argv.includes('--floor') ? serverFloor : serverOurs(await loadOurs(false, src));
const prepared = await system.prepare();
const samples = new Samples();
const conversations = conversationsAtOnce(prepared, c, samples);
await conversations.runFor(1000);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
// the includeObjectsCollectedBy… options are newer than @types/node's copy of the protocol
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const turns = await conversations.runFor(seconds * 1000);
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
  const site = `${functionName || '(anonymous)'}  ${url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${lineNumber + 1}`;
  total += node.selfSize;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head as unknown as SampledNode);
const calls = turns * CALLS_PER_TURN;
const perCall = (bytes: number) => (bytes / calls).toFixed(0).padStart(6);
console.log(`${system.name}, C=${c}: ${turns} turns sampled, ${perCall(total).trim()} B allocated per call (${(total / turns / 1024).toFixed(1)} KB per turn)\n`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${perCall(bytes)} B/call  ${site}`);
