import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildOurs, repoRoot } from './build-ours.js';
import { median } from './measure.js';

/**
 * Before/after in the server regime, one build per process: each source directory is built once
 * (its own output directory), then `runs` rounds run server-cpu.ts for each build in turn, and
 * each build's median CPU µs per call is printed. Nothing is shared between the builds (in one
 * process, RxJS's call sites would see both builds' functions, and each system's garbage is
 * collected in the others' runs). `vercel-ai` or `floor` in place of a directory runs that system:
 *
 *   node --import tsx bench/src/ab-server.ts [--runs=5] [--c=100] [--seconds=4] [--warm=4] /tmp/before/src src
 *   node --import tsx bench/src/ab-server.ts --runs=5 src vercel-ai floor
 */
const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (dirs.length === 0) throw new Error('usage: ab-server.ts [--runs=5] [--c=100] [--seconds=4] [--warm=4] <src dir> [<src dir> …]');
const runs = Number(option('runs', '5'));
const builds = new Map<string, string>();
const systems = new Set(['vercel-ai', 'floor']);
for (const [k, dir] of dirs.entries()) {
  if (systems.has(dir)) {
    builds.set(dir, dir);
    continue;
  }
  const out = join(repoRoot, 'bench', 'node_modules', '.cache', `ab-${k}`);
  await buildOurs(dir, out);
  builds.set(dir, out);
}
const cpu = new Map<string, number[]>(dirs.map((dir) => [dir, []]));
const gc = new Map<string, number[]>(dirs.map((dir) => [dir, []]));
for (let round = 0; round < runs; round++) {
  // alternate the order, so neither build always runs right after the other
  for (const dir of round % 2 === 0 ? dirs : [...dirs].reverse()) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join('bench', 'src', 'server-cpu.ts'), builds.get(dir)!, option('c', '100'), option('seconds', '4'), option('warm', '4')],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    cpu.get(dir)!.push(Number(/([\d.]+) CPU µs\/call/.exec(out)?.[1]));
    gc.get(dir)!.push(Number(/([\d.]+) GC µs\/call/.exec(out)?.[1]));
    console.log(`round ${round + 1}, ${dir}: ${out.trim()}`);
  }
}
console.log('\n| source | median CPU µs/call | median GC pauses µs/call | CPU, each run |\n|---|---:|---:|---|');
for (const dir of dirs) console.log(`| ${dir} | ${median(cpu.get(dir)!).toFixed(2)} | ${median(gc.get(dir)!).toFixed(2)} | ${cpu.get(dir)!.join(', ')} |`);
