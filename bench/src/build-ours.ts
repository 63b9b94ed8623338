import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (bench/src/../..). */
export const repoRoot = resolve(here, '..', '..');
/** Where the bench's private build of the library goes (ignored by git with bench/node_modules). */
export const buildDir = join(repoRoot, 'bench', 'node_modules', '.cache', 'rx-tool-loop');

/**
 * Builds the library from src/ the way the package is published (tsup: ESM, target node20,
 * tree-shaken, not minified) into the bench's cache, so our loop is measured as users run it and
 * not through tsx's on-the-fly transform (which wraps every function expression in `__name`).
 * The peers are measured from their published builds too.
 */
export async function buildOurs(): Promise<{ index: string; testing: string }> {
  await build({
    config: false,
    entry: { index: join(repoRoot, 'src/index.ts'), 'testing/index': join(repoRoot, 'src/testing/index.ts') },
    outDir: buildDir,
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
  const index = join(buildDir, 'index.js');
  const testing = join(buildDir, 'testing', 'index.js');
  if (!existsSync(index) || !existsSync(testing)) throw new Error(`The bench build of rx-tool-loop is missing (${buildDir}).`);
  return { index: pathToFileURL(index).href, testing: pathToFileURL(testing).href };
}
