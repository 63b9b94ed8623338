import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './build-ours.js';

/**
 * Before/after in the server regime, one system per process: server-gc.ts for each source
 * directory in turn, `runs` rounds alternating between them, then each one's median CPU µs per
 * call. Slower than compare.ts, but nothing is shared between the two builds (compare.ts runs
 * both in one process, where RxJS's call sites see both builds' classes and small differences
 * can come out with either sign):
 *
 *   node --import tsx bench/src/ab-server.ts --runs=5 [--c=100] [--seconds=3] /tmp/before/src src
 */
const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (dirs.length === 0) throw new Error('usage: ab-server.ts [--runs=5] [--c=100] [--seconds=3] <src dir> [<src dir> …]');
const runs = Number(option('runs', '5'));
const figures = new Map<string, number[]>(dirs.map((dir) => [dir, []]));
for (let round = 0; round < runs; round++) {
  for (const dir of dirs) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join('bench', 'src', 'server-gc.ts'), option('c', '100'), option('seconds', '3'), `--src=${dir}`],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    const cpu = Number(/([\d.]+) CPU µs\/call/.exec(out)?.[1]);
    figures.get(dir)!.push(cpu);
    console.log(`round ${round + 1}, ${dir}: ${cpu} CPU µs/call`);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
console.log('\n| source | median CPU µs/call | runs |\n|---|---:|---|');
for (const [dir, values] of figures) console.log(`| ${dir} | ${median(values).toFixed(2)} | ${values.join(', ')} |`);
