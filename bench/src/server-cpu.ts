import { GCProfiler } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { emptyNursery } from './measure.js';
import { serverFloor, serverOurs, serverVercel } from './server-systems.js';
import { ballast } from './server.js';
import { CALLS_PER_TURN, conversationsAtOnce, Samples, type ServerSystem } from './server-workload.js';
import type { OursLib } from './systems/ours.js';

/**
 * One system alone in its process, in the server regime (server.ts: C conversations, 150 MB of
 * other live objects): turns for `warm` seconds untimed, then for `seconds`, and prints the CPU
 * and the collector's pauses per call. Ours comes from a build already made (`build-ours.ts`);
 * ab-server.ts runs it for each build in turn. `vercel-ai` or `floor` in place of the build
 * directory measures that system alone (in server.ts's run all systems share one heap):
 *
 *   node --expose-gc --import tsx bench/src/server-cpu.ts <build dir | vercel-ai | floor> [C=100] [seconds=4] [warm=4]
 */
const [which, cArg, secondsArg, warmArg] = process.argv.slice(2);
if (!which) throw new Error('usage: server-cpu.ts <build dir | vercel-ai | floor> [C] [seconds] [warm]');
const c = Number(cArg ?? 100);
const system: ServerSystem =
  which === 'vercel-ai' ? serverVercel : which === 'floor' ? serverFloor : serverOurs(await loadBuilt(which));
const held = ballast(150);
const conversations = conversationsAtOnce(await system.prepare(), c, new Samples());
await conversations.runFor(Number(warmArg ?? 4) * 1000);
emptyNursery();
const profiler = new GCProfiler();
profiler.start();
const cpu0 = process.cpuUsage();
const turns = await conversations.runFor(Number(secondsArg ?? 4) * 1000);
const cpu = process.cpuUsage(cpu0);
let gcUs = 0;
for (const collection of profiler.stop()?.statistics ?? []) gcUs += collection.cost;
const calls = turns * CALLS_PER_TURN;
console.log(
  `${system.name}: ${((cpu.user + cpu.system) / calls).toFixed(2)} CPU µs/call, ${(gcUs / calls).toFixed(2)} GC µs/call, ${turns} turns (ballast ${(held.bytes / 1048576).toFixed(0)} MB)`,
);

async function loadBuilt(dir: string): Promise<OursLib> {
  return {
    lib: await import(pathToFileURL(join(dir, 'index.js')).href),
    testing: await import(pathToFileURL(join(dir, 'testing', 'index.js')).href),
    from: dir,
  };
}
