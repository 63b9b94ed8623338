import { Session } from 'node:inspector/promises';
import { serverFloor, serverOurs } from './server-systems.js';
import { CALLS_PER_TURN, conversationsAtOnce, Samples } from './server-workload.js';
import { allocationBySite, topSites } from './alloc-sites.js';
import { loadOurs } from './systems/ours.js';

/**
 * Where one system allocates in the server regime (server.ts: C conversations at once, model and
 * tools on timers; no ballast, it allocates nothing): V8's sampling heap profiler over `seconds`
 * of turns after one untimed second, objects collected by minor and major GCs included, so the
 * figures are bytes allocated per call (not retained), by allocating function:
 *
 *   node --import tsx bench/src/alloc-server.ts [C=100] [seconds=4] [--floor] [--top=30] [--src=<dir>] [--survivors]
 *
 * `--survivors` leaves out what minor GCs collected: the bytes that lived through a young-generation
 * collection, which it copied, and the few young objects a full collection found dead (at
 * C=10,000 most of what a turn allocates: bench/RESULTS.md, "Session 29").
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const c = Number(args[0] ?? 100);
const seconds = Number(args[1] ?? 4);
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 30);
const src = process.argv.find((a) => a.startsWith('--src='))?.slice(6);
const survivors = process.argv.includes('--survivors');
const system = process.argv.includes('--floor') ? serverFloor : serverOurs(await loadOurs(false, src));
const prepared = await system.prepare();
const samples = new Samples();
const conversations = conversationsAtOnce(prepared, c, samples);
await conversations.runFor(1000);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
// the includeObjectsCollectedBy… options are newer than @types/node's copy of the protocol
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !survivors });
const turns = await conversations.runFor(seconds * 1000);
const { profile } = await session.post('HeapProfiler.stopSampling');
session.disconnect();

const { total, bySite } = allocationBySite(profile.head);
const calls = turns * CALLS_PER_TURN;
console.log(`${system.name}, C=${c}: ${turns} turns sampled, ${(total / calls).toFixed(0)} B ${survivors ? 'that lived through a minor GC' : 'allocated'} per call (${(total / turns / 1024).toFixed(1)} KB per turn)\n`);
console.log(topSites(bySite, calls, top));
