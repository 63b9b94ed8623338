import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './build-ours.js';

/**
 * Which releases of the peers (Vercel AI SDK, OpenAI Agents JS) the bench runs, `--peers=`:
 * - `pinned`: bench/node_modules (`ai` 6, `@openai/agents-core` 0.14, `openai` 6), which run on Node 20;
 * - `next`: bench/next/node_modules (`ai` 7, `@openai/agents-core` 0.20, `openai` 7), which need Node 22.
 * The default is `next` on Node >= 22 and `pinned` otherwise. Each folder is installed with
 * `npm ci` on first use; the peer systems import from the chosen one (types come from `pinned`).
 */
export type PeerSet = 'pinned' | 'next';

const FOLDERS: Record<PeerSet, string> = { pinned: join(repoRoot, 'bench'), next: join(repoRoot, 'bench', 'next') };
const PACKAGES = ['ai', '@openai/agents-core', 'openai', 'zod'];
const nodeMajor = Number(process.versions.node.split('.')[0]);

function choose(): PeerSet {
  const wanted = process.argv.find((a) => a.startsWith('--peers='))?.slice('--peers='.length);
  if (wanted === undefined) return nodeMajor >= 22 ? 'next' : 'pinned';
  const problem =
    wanted !== 'pinned' && wanted !== 'next'
      ? `--peers=${wanted}: expected pinned or next`
      : wanted === 'next' && nodeMajor < 22
        ? `--peers=next needs Node 22 or later (this is ${process.version}); add --node=22`
        : undefined;
  if (problem === undefined) return wanted as PeerSet;
  console.error(`bench: ${problem}`);
  process.exit(2);
}

/** The peer set of this process. */
export const peerSet: PeerSet = choose();
const folder = FOLDERS[peerSet];
const modules = join(folder, 'node_modules');

if (PACKAGES.some((name) => !existsSync(join(modules, name, 'package.json')))) {
  console.error(`bench: installing the peers into ${relative(repoRoot, modules)} (npm ci)…`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: folder, stdio: [0, 2, 2] }); // npm's output to stderr, not the report
}

/** The installed version of one of the peers' packages in the chosen folder, e.g. `peerVersion('ai')`. */
export function peerVersion(name: string): string {
  return (JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** One line for the report: the peer set, its folder and the versions that ran. */
export function peersLine(): string {
  const versions = PACKAGES.map((name) => `${name} ${peerVersion(name)}`).join(', ');
  return `Peers: ${versions} (--peers=${peerSet}, from ${relative(repoRoot, modules)}).`;
}

// Dynamic imports resolve from the importing file: this one's folder reaches bench/node_modules,
// and bench/next/load.mjs's reaches bench/next/node_modules.
const load: (specifier: string) => Promise<unknown> =
  peerSet === 'pinned' ? (specifier) => import(specifier) : ((await import(pathToFileURL(join(folder, 'load.mjs')).href)) as { load: (s: string) => Promise<unknown> }).load;

/**
 * Imports a peer module (`'ai'`, `'ai/test'`, `'@openai/agents-core'`) from the chosen folder.
 * `T` is the pinned release's type (`typeof import('ai')`); the systems branch where `next` differs.
 */
export async function importPeer<T>(specifier: string): Promise<T> {
  return (await load(specifier)) as T;
}
