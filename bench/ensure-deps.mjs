// Installs the bench's own dependencies (the peers it compares against) on first use:
// `npm --prefix bench ci` when bench/node_modules lacks them. Never touches the root install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = dirname(fileURLToPath(import.meta.url));
const needed = ['ai', join('@openai', 'agents-core'), 'zod', 'openai', 'graphile-worker', join('@dbos-inc', 'dbos-sdk')];
if (needed.some((name) => !existsSync(join(bench, 'node_modules', name, 'package.json')))) {
  console.error('bench: installing the peers into bench/node_modules (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { cwd: bench, stdio: 'inherit' });
}
