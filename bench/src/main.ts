import './node-switch.js'; // --node=22|24: re-runs under that Node before anything else loads
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { buildDir } from './build-ours.js';
import { durableLine, durableTable, measureDurable, type DurableResult } from './durable.js';
import { enginesTable } from './engines/engines-report.js';
import { measureEngines } from './engines/engines.js';
import { hasGc } from './measure.js';
import { measureMemory } from './memory.js';
import { headline, measureOverhead, overheadTable, scalingTable } from './overhead.js';
import { peersLine } from './peers.js';
import { measurePostGc, postGcTable } from './post-gc.js';
import { measureServer, serverTables } from './server.js';
import { serverFloor, serverOurs, serverVercel } from './server-systems.js';
import { measureProviderDeltas } from './provider-deltas.js';
import { measureStreaming } from './streaming.js';
import { floor } from './systems/floor.js';
import { floorRxjs } from './systems/floor-rxjs.js';
import { openaiAgents } from './systems/openai-agents.js';
import { loadOurs, ours } from './systems/ours.js';
import { vercelAi } from './systems/vercel-ai.js';
import type { System } from './workload.js';

/**
 * `npm run bench [-- --quick] [-- --only=post-gc,server,overhead,streaming,deltas,memory] [-- --sizes=1000,10000]
 * [-- --post-gc-sizes=1,10,1000] [-- --post-gc-at-once] [-- --server-c=10,100,1000,10000] [-- --server-turns=20] [-- --server-warm=150] [-- --server-runs=5]
 * [-- --systems=floor,ours (bare)] [-- --node=20,22,24] [-- --peers=pinned|next] [-- --from-source] [-- --out=bench/last-run.md]
 * [-- --max-turn-ms=5000] [-- --only=durable [--durable-turns=3000] [--durable-workers=4] [--durable-concurrency=16]
 * [--durable-inflight=64] [--durable-pool=5] [--durable-light=300] [--durable-polling]]
 * [-- --only=engines [--engines=pg-boss,dbos,graphile] (and the --durable-* sizes)]`.
 * Prints markdown tables; never fails on a slow figure (benchmarks are not tests). In the
 * back-to-back section a system is left out of a size where its turn would take longer than
 * `--max-turn-ms` (2 s in quick mode, 5 s otherwise), as projected from the sizes before or as
 * its first turn took: OpenAI Agents 0.20's turn grows with the square of N. The post-GC
 * and server regimes run first: once OpenAI Agents has run, its AsyncLocalStorage keeps Node's
 * promise hooks on for the rest of the process (bench/RESULTS.md, "What the bench corrects for"), and they do not include it.
 * `--peers=next` runs the peers' newest releases (Node >= 22, the default there), `pinned` the
 * ones of bench/package.json (the default on Node 20): see peers.ts. `--post-gc-at-once` times
 * each post-GC turn right after its `gc()`, while the helper threads still sweep (post-gc.ts).
 * `--only=durable` (never part of the default set: it needs a database and worker processes)
 * runs durable turns through pg-boss worker processes (durable.ts); the report's last line is then
 * its one-line summary. `--only=engines` carries the same flow on each durable engine (engines/):
 * pg-boss, DBOS Transact and, on Node 22.18+ (`--node=22`), graphile-worker; with `durable` in the
 * same run, the library's durable turns head its table.
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag('quick');
const only = new Set((option('only') ?? 'post-gc,server,overhead,streaming,memory').split(','));
const sizes = (option('sizes') ?? '1,10,100,1000,10000').split(',').map(Number);
const started = performance.now();
const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);

const loaded = await loadOurs(flag('from-source'), option('src'));
const main = ours(loaded, { label: 'ours', maxParallelTools: 10_000 });
const capped = ours(loaded, { label: 'ours (cap 8)', maxParallelTools: 8 });
const bare = ours(loaded, { label: 'ours (bare)', maxParallelTools: 10_000, bare: true });
// --systems=floor,ours (bare),… runs only those besides ours (the reference)
const picked = option('systems')?.split(',');
const keep = (s: System) => s === main || !picked || picked.includes(s.name);
const peers = [vercelAi, openaiAgents].filter(keep);
const systems: System[] = [main, capped, bare, floor, ...peers].filter(keep);

const out: string[] = [];
out.push(`# rx-tool-loop benchmarks${quick ? ' (quick)' : ''}`);
out.push('');
out.push(
  `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at start. ours = ${loaded.from}. Command: \`npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}\``,
);
out.push('');
out.push(peersLine());
out.push('');
out.push('Systems:');
for (const s of systems) out.push(`- **${s.name}**: ${s.note}`);
if (only.has('post-gc') && keep(floorRxjs)) out.push(`- **${floorRxjs.name}** (post-GC only): ${floorRxjs.note}`);
if (!hasGc()) out.push('\n(no --expose-gc: garbage is not collected between runs and the memory section is skipped)');

if (only.has('post-gc') && hasGc()) {
  log('post-GC…');
  const postGcSizes = (option('post-gc-sizes') ?? '1,10,1000').split(',').map(Number);
  const r = await measurePostGc([capped, main, floor, floorRxjs, vercelAi].filter(keep), {
    sizes: postGcSizes,
    runs: quick ? 9 : 41,
    settle: !process.argv.includes('--post-gc-at-once'),
    reference: capped.name,
    floor: floor.name,
    log,
  });
  const after = r.options.settle ? ', its sweeping finished,' : '';
  out.push('', `## Post-GC: a full gc()${after} before each timed turn`, '', postGcTable(r));
}

if (only.has('server')) {
  log('server…');
  const cs = (option('server-c') ?? (quick ? '10,100,1000' : '10,100,1000,10000')).split(',').map(Number);
  const fixedTurns = option('server-turns');
  const turns = (c: number) =>
    fixedTurns ? Number(fixedTurns) : quick ? (c <= 100 ? 3 : 1) : c <= 100 ? 20 : c <= 1000 ? 5 : 1;
  const r = await measureServer([serverOurs(loaded), serverFloor, ...(picked && !picked.includes('vercel-ai') ? [] : [serverVercel])], {
    conversations: cs,
    runs: Number(option('server-runs') ?? (quick ? 3 : 5)),
    turns,
    ballastMb: 150,
    warmTurns: Number(option('server-warm') ?? (quick ? 1 : 150)),
    reference: 'ours',
    floor: serverFloor.name,
    log,
  });
  out.push('', '## Server: C conversations at once (3 iterations × 3 calls, model 2 ms, tools 0–1 ms)', '', serverTables(r));
}

if (only.has('overhead')) {
  log('overhead…');
  const r = await measureOverhead(systems, {
    sizes,
    runs: quick ? 5 : 9,
    sampleMs: quick ? 15 : 100,
    reference: main.name,
    log,
    skipWarmAboveMs: quick ? 250 : undefined,
    warmMs: quick ? 50 : 250,
    maxTurnMs: Number(option('max-turn-ms') ?? (quick ? 2_000 : 5_000)),
  });
  out.push('', '## Back to back: per-call overhead', '', overheadTable(r));
  out.push('', '## Scaling', '', scalingTable(r));
  if (sizes.includes(1000)) out.push('', headline(r, 1000, floor.name, peers.map((p) => p.name)));
}

if (only.has('streaming')) {
  log('streaming…');
  out.push('', '## Streaming', '');
  out.push(await measureStreaming(loaded.lib as never, { runs: quick ? 5 : 9, calls: 1000, textBytes: 1_000_000 }));
}

if (only.has('deltas')) {
  log('provider deltas…');
  out.push('', '## CPU per streamed delta, by provider', '');
  out.push(await measureProviderDeltas(loaded.lib as never, { runs: quick ? 5 : 15, calls: 200 }));
}

if (only.has('memory')) {
  log('memory…');
  const turns = (s: System) => (quick && (s === vercelAi || s === openaiAgents) ? 1_000 : 10_000);
  out.push('', '## Memory (3 calls per turn)', '');
  out.push(await measureMemory([main, floor, ...peers], { turns, log }));
}

/** The durable and engine benches' sizes, from the --durable-* options. */
function durableSizes() {
  const workers = Number(option('durable-workers') ?? 4);
  const concurrency = Number(option('durable-concurrency') ?? 16);
  return {
    turns: Number(option('durable-turns') ?? (quick ? 600 : 3000)),
    warm: quick ? 100 : 300,
    workers,
    concurrency,
    inflight: Number(option('durable-inflight') ?? workers * concurrency),
    light: Number(option('durable-light') ?? (quick ? 100 : 300)),
  };
}

let durable: DurableResult | undefined;
if (only.has('durable')) {
  log('durable…');
  durable = await measureDurable({
    ...durableSizes(),
    poolMax: Number(option('durable-pool') ?? 5),
    ceilingMs: quick ? 3_000 : 10_000,
    wakeUps: !flag('durable-polling'),
    library: flag('from-source') ? 'src' : buildDir,
    log,
  });
  out.push('', '## Durable turns through pg-boss worker processes', '', durableTable(durable));
}

if (only.has('engines')) {
  log('engines…');
  const results = await measureEngines({
    engines: (option('engines') ?? 'pg-boss,dbos,graphile').split(','),
    ...durableSizes(),
    ceilingMs: quick ? 3_000 : 10_000,
    library: flag('from-source') ? 'src' : buildDir,
    log,
  });
  out.push('', `## One durable flow on each engine (Node ${process.versions.node})`, '', enginesTable(results, durable));
}

out.push('', `Total bench time: ${((performance.now() - started) / 1000).toFixed(1)} s.`);
if (durable) out.push('', durableLine(durable)); // the last line
const text = out.join('\n');
console.log(text);
const file = option('out');
if (file) writeFileSync(file, `${text}\n`);
