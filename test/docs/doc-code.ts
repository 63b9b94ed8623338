import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

export const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** A TypeScript code block of a markdown page. */
export interface MarkdownBlock {
  /** The page, relative to the repository, and the block's index among the page's TypeScript blocks. */
  readonly file: string;
  readonly index: number;
  /** Line of the opening fence (1-based), and the block's first line of code. */
  readonly line: number;
  readonly firstLine: string;
  /** What the `<!-- doc-test: … -->` comment right above the fence says, or undefined without one. */
  readonly directive: string | undefined;
  readonly code: string;
}

/** Every ```ts / ```typescript block of a markdown page, with the doc-test comment just before it. */
export function markdownBlocks(file: string): MarkdownBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: MarkdownBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const fence = /^(\s*)(`{3,})(\S*)/.exec(lines[at]);
    if (!fence) continue;
    const end = lines.findIndex((l, i) => i > at && l.trimStart().startsWith(fence[2]));
    const body = lines.slice(at + 1, end === -1 ? lines.length : end);
    if (['ts', 'typescript'].includes(fence[3].toLowerCase())) {
      let above = at - 1;
      while (above >= 0 && lines[above].trim() === '') above--;
      const directive = /^<!--\s*doc-test:\s*(.*?)\s*-->$/.exec(lines[above]?.trim() ?? '')?.[1];
      blocks.push({ file, index: blocks.length, line: at + 1, firstLine: body.find((l) => l.trim() !== '') ?? '', directive, code: `${body.join('\n')}\n` });
    }
    at = end === -1 ? lines.length : end;
  }
  return blocks;
}

/** The markdown pages whose code is documentation: README.md and docs/*.md. */
export function markdownPages(): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

/** Every `.ts` file under `dir`, relative to the repository. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [relative('.', path)] : [];
  });
}

/** The package's public entry points, as a user imports them. */
export const ENTRY_POINTS = ['rx-tool-loop', 'rx-tool-loop/operators', 'rx-tool-loop/testing', 'rx-tool-loop/durable'] as const;

/**
 * The value names each module exports, read from the built package (and other packages) in a
 * fresh Node process, as a user's code would load them.
 */
export async function exportedNames(modules: readonly string[]): Promise<Record<string, string[]>> {
  const script = `const out = {};
    for (const m of ${JSON.stringify(modules)}) out[m] = Object.keys(await import(m));
    console.log(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(stdout) as Record<string, string[]>;
}
