import { constants, PerformanceObserver } from 'node:perf_hooks';
import { serverFloor, serverOurs } from './server-systems.js';
import { ballast } from './server.js';
import { CALLS_PER_TURN, conversationsAtOnce, Samples } from './server-workload.js';
import { loadOurs } from './systems/ours.js';

/**
 * One system in the server regime (server.ts: C conversations at once, the 150 MB ballast), with
 * what garbage collection took on the main thread, after one untimed second:
 *
 *   node --expose-gc --import tsx bench/src/server-gc.ts [C=100] [seconds=5] [--floor] [--src=<dir>]
 *
 * Prints CPU µs per call and, per kind of collection, how many ran and their pauses per call.
 */
const TIMED_START = '-- timed turns start';
const TIMED_END = '-- timed turns end';
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const c = Number(args[0] ?? 100);
const seconds = Number(args[1] ?? 5);
const src = process.argv.find((a) => a.startsWith('--src='))?.slice(6);
const system = process.argv.includes('--floor') ? serverFloor : serverOurs(await loadOurs(false, src));
const held = ballast(150);
const prepared = await system.prepare();
const samples = new Samples();
const conversations = conversationsAtOnce(prepared, c, samples);
await conversations.runFor(1000);
const kinds: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const gcs = new Map<string, { n: number; ms: number }>();
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = kinds[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
    const g = gcs.get(kind) ?? { n: 0, ms: 0 };
    g.n++;
    g.ms += entry.duration;
    gcs.set(kind, g);
  }
});
observer.observe({ entryTypes: ['gc'] });
console.log(TIMED_START); // for scavenge-stats.ts, which reads V8's --trace-gc-nvp lines between the two
const cpu0 = process.cpuUsage();
const turns = await conversations.runFor(seconds * 1000);
const cpu = process.cpuUsage(cpu0);
console.log(TIMED_END);
await new Promise((resolve) => setTimeout(resolve, 50)); // the last entries
observer.disconnect();
const calls = turns * CALLS_PER_TURN;
console.log(`${system.name}, C=${c}: ${turns} turns, ${((cpu.user + cpu.system) / calls).toFixed(2)} CPU µs/call (ballast ${(held.bytes / 1048576).toFixed(0)} MB)`);
for (const [kind, g] of gcs) {
  console.log(`  gc ${kind}: ${g.n} (${((g.n / turns) * 1000).toFixed(1)} per 1000 turns), ${g.ms.toFixed(0)} ms of pauses = ${((g.ms * 1000) / calls).toFixed(2)} µs/call`);
}
