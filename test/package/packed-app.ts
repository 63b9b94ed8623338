import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const root = new URL('../../', import.meta.url).pathname;

/** What every app that installed the tarball has: the package's dependency and its required peers. */
const always = ['rxjs', 'zod', '@opentelemetry/api'];

/**
 * The compiler options of a strict app that checks every package's .d.ts it loads (tsc's default
 * `skipLibCheck: false`); only TypeScript's own lib files go unchecked, which keeps a run short.
 * No `@types/node` unless an app installs it among its peers: the package's types need none.
 */
export const strictOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: [],
  noEmit: true,
} as const;

/** A small app: its sources, the optional peers it installed, and compiler options over `strictOptions`. */
export interface AppSpec {
  readonly files: Readonly<Record<string, string>>;
  readonly peers?: readonly string[];
  readonly options?: Readonly<Record<string, unknown>>;
}

/** Packs the package (as `npm publish` would) into a fresh folder; returns the folder and the pack report. */
export async function packPackage(): Promise<{ dir: string; tarball: string; files: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'rtl-apps-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  return { dir, tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * Installs the tarball into `dir/node_modules/rx-tool-loop` (extracted: a symlink would resolve
 * the package's own imports from the repo, where every peer is) and links `always` and the app's
 * peers from the repo's node_modules: no network, and no package the app did not install.
 */
export async function makeApp(dir: string, tarball: string, app: AppSpec): Promise<void> {
  const target = join(dir, 'node_modules/rx-tool-loop');
  await mkdir(target, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  for (const name of [...always, ...(app.peers ?? [])]) {
    await mkdir(dirname(join(dir, 'node_modules', name)), { recursive: true });
    await symlink(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  const type = app.options?.module === 'commonjs' ? 'commonjs' : 'module';
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type }));
  const types = app.peers?.includes('@types/node') ? ['node'] : [];
  const compilerOptions = { ...strictOptions, types, ...app.options };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: Object.keys(app.files) }));
  for (const [name, text] of Object.entries(app.files)) await writeFile(join(dir, name), text);
}

/**
 * Type-checks the apps under `parent` with one `tsc -b` (it parses the packages the apps share
 * once) and returns each app's diagnostics, one line each, by the app's folder name.
 */
export async function typeCheckApps(parent: string, names: readonly string[]): Promise<Map<string, string[]>> {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '-b', ...names, '--verbose', '--pretty', 'false'];
  const stdout = await run(process.execPath, args, { cwd: parent, maxBuffer: 64 << 20 }).then(
    (out) => out.stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  const errors = new Map(names.map((name) => [name, [`tsc -b did not build it:\n${stdout}`]]));
  const outside: string[] = [];
  let current = outside;
  for (const line of stdout.split('\n')) {
    const building = /Building project '(.*)\/tsconfig\.json'/.exec(line);
    if (building) errors.set(basename(building[1]), (current = []));
    else if (/error TS\d+/.test(line)) current.push(line);
  }
  if (outside.length > 0) throw new Error(`tsc -b failed before any app: ${outside.join('\n')}`);
  return errors;
}
