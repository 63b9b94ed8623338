import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { repoRoot } from './build-ours.js';
import { summarize } from './profile-summary.js';
import { serverFloor, serverOurs } from './server-systems.js';
import { ballast } from './server.js';
import { CALLS_PER_TURN, conversationsAtOnce, Samples } from './server-workload.js';
import { loadOurs } from './systems/ours.js';

/**
 * A CPU profile of one system in the server regime (server.ts): C conversations at once with
 * the 150 MB ballast, turns until `seconds` have passed, after one untimed round:
 *
 *   node --expose-gc --import tsx bench/src/profile-server.ts [C=100] [seconds=5] [--floor] [--src=<dir>]
 *
 * Writes bench/profiles/server-<system>-C<C>.cpuprofile and prints the top self time.
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const c = Number(args[0] ?? 100);
const seconds = Number(args[1] ?? 5);
const useFloor = process.argv.includes('--floor');
const system = useFloor ? serverFloor : serverOurs(await loadOurs(false, process.argv.find((a) => a.startsWith('--src='))?.slice(6)));
const held = ballast(Number(process.argv.find((a) => a.startsWith('--ballast='))?.slice(10) ?? 150));
const prepared = await system.prepare();
const samples = new Samples();
const conversations = conversationsAtOnce(prepared, c, samples);
await conversations.runFor(1000);
samples.length = 0;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const turns = await conversations.runFor(seconds * 1000);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const { profile } = await session.post('Profiler.stop');
session.disconnect();
const dir = join(repoRoot, 'bench', 'profiles');
mkdirSync(dir, { recursive: true });
const file = join(dir, `server-${useFloor ? 'floor' : 'ours'}-C${c}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
const calls = turns * CALLS_PER_TURN;
console.log(
  `${system.name}, C=${c}: ${turns} turns, ${((cpu.user + cpu.system) / calls).toFixed(2)} CPU µs/call, ${((wall * 1000) / calls).toFixed(2)} wall µs/call, ` +
    `added p50 ${(samples.quantile(0.5) * 1000).toFixed(1)} µs, p99 ${(samples.quantile(0.99) * 1000).toFixed(1)} µs (ballast ${(held.bytes / 1048576).toFixed(0)} MB, profiled)`,
);
console.log(summarize(file, Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 40)));
