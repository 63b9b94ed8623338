import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (bench/src/../..). */
export const repoRoot = resolve(here, '..', '..');
/** Where the bench's private build of the library goes (ignored by git with bench/node_modules). */
export const buildDir = join(repoRoot, 'bench', 'node_modules', '.cache', 'rx-tool-loop');

/**
 * Builds the library from src/ the way the package is published (tsup: ESM, target node20,
 * tree-shaken, not minified) into the bench's cache, so our loop is measured as users run it and
 * not through tsx's on-the-fly transform (which wraps every function expression in `__name`).
 * The peers are measured from their published builds too. `srcDir` builds another copy of the
 * sources instead (e.g. an older commit's, exported with `git archive`), to compare before/after.
 *
 * The build runs in a child process: tsup, rollup and TypeScript would otherwise stay in the
 * measuring process's old generation (~35 MB) and slow every major GC of every system.
 */
export async function buildOurs(srcDir = join(repoRoot, 'src'), outDir = buildDir): Promise<{ index: string; testing: string }> {
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), srcDir, outDir], { cwd: repoRoot, stdio: 'inherit' });
  const index = join(outDir, 'index.js');
  const testing = join(outDir, 'testing', 'index.js');
  if (!existsSync(index) || !existsSync(testing)) throw new Error(`The bench build of rx-tool-loop is missing (${outDir}).`);
  return { index: pathToFileURL(index).href, testing: pathToFileURL(testing).href };
}

/** The child: `node --import tsx bench/src/build-ours.ts <srcDir> <outDir>`. */
async function buildInThisProcess(srcDir: string, outDir: string): Promise<void> {
  const { build } = await import('tsup');
  await build({
    config: false,
    entry: {
      index: join(srcDir, 'index.ts'),
      'testing/index': join(srcDir, 'testing/index.ts'),
      // the durable bench's worker processes load it (an older src/ may not have it)
      ...(existsSync(join(srcDir, 'durable', 'index.ts')) ? { 'durable/index': join(srcDir, 'durable', 'index.ts') } : {}),
    },
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    sourcemap: false,
    dts: false,
    clean: true,
    silent: true,
    tsconfig: join(repoRoot, 'tsconfig.json'),
  });
}

// run as the child above, not when another script imports this module
const asChild = basename(fileURLToPath(import.meta.url)) === 'build-ours.ts';
if (asChild && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [srcDir, outDir] = process.argv.slice(2);
  if (!srcDir || !outDir) {
    console.error('usage: build-ours.ts <srcDir> <outDir>');
    process.exit(1);
  }
  await buildInThisProcess(srcDir, outDir);
}
