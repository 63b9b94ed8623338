import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { hasGc } from './measure.js';
import { measureMemory } from './memory.js';
import { headline, measureOverhead, overheadTable, scalingTable } from './overhead.js';
import { measureStreaming } from './streaming.js';
import { floor } from './systems/floor.js';
import { openaiAgents } from './systems/openai-agents.js';
import { loadOurs, ours } from './systems/ours.js';
import { vercelAi } from './systems/vercel-ai.js';
import type { System } from './workload.js';

/**
 * `npm run bench [-- --quick] [-- --only=overhead,streaming,memory] [-- --sizes=1000,10000]
 * [-- --systems=floor,ours (bare)] [-- --from-source] [-- --out=bench/last-run.md]`. Prints markdown tables; never fails on a
 * slow figure (benchmarks are not tests).
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag('quick');
const only = new Set((option('only') ?? 'overhead,streaming,memory').split(','));
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
out.push('Systems:');
for (const s of systems) out.push(`- **${s.name}**: ${s.note}`);
if (!hasGc()) out.push('\n(no --expose-gc: garbage is not collected between runs and the memory section is skipped)');

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
  });
  out.push('', '## Per-call overhead', '', overheadTable(r));
  out.push('', '## Scaling', '', scalingTable(r));
  if (sizes.includes(1000)) out.push('', headline(r, 1000, floor.name, peers.map((p) => p.name)));
}

if (only.has('streaming')) {
  log('streaming…');
  out.push('', '## Streaming', '');
  out.push(await measureStreaming(loaded.lib as never, { runs: quick ? 5 : 9, calls: 1000, textBytes: 1_000_000 }));
}

if (only.has('memory')) {
  log('memory…');
  const turns = (s: System) => (quick && (s === vercelAi || s === openaiAgents) ? 1_000 : 10_000);
  out.push('', '## Memory (3 calls per turn)', '');
  out.push(await measureMemory([main, floor, ...peers], { turns, log }));
}

out.push('', `Total bench time: ${((performance.now() - started) / 1000).toFixed(1)} s.`);
const text = out.join('\n');
console.log(text);
const file = option('out');
if (file) writeFileSync(file, `${text}\n`);
