import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startScript } from '../durable/processes.js';
import { freePort } from '../durable/test-database.js';
import { markdownBlocks, markdownPages, root, type MarkdownBlock } from './doc-code.js';

/**
 * Every TypeScript block of README.md and docs/*.md, extracted as written. The comment
 * `<!-- doc-test: MODE[, prelude NAME[+NAME…]][, after ID][, as ID][, prints "TEXT"] -->` right above a
 * block says how it is checked; a block without one fails the suite.
 *
 * - every block is type-checked (tsc, NodeNext) against the built package: `rx-tool-loop`
 *   resolves to this package itself (its "exports", dist/), since the files sit inside it;
 * - `run`: also run as a program (`node --import tsx`), offline, in a folder of its own; it must
 *   exit 0 (and print TEXT);
 * - `serve` / `join`: the two processes of a recipe: `serve` runs and keeps running, and once it
 *   printed its epilogue's line, `join` runs in another process;
 * - `typecheck`: type-checked only (it needs a service or a model the test does not run).
 *
 * A `prelude` comes before the block: the names a fragment leaves to the reader (`provider`,
 * `tools`, …), as values for blocks that run and as declarations for those only type-checked.
 * `after ID` puts the page's block marked `as ID` first. A block that imports from `./examples/`
 * (the repository's examples) is checked against src/ (see `onSources`).
 */
const exec = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Names fragments leave to the reader: a scripted model that asks for one risky call, and its tool. */
const AGENT_PARTS = `import { z as docZ } from 'zod';
import { defineTool as docDefineTool, type TurnEvent as DocTurnEvent } from 'rx-tool-loop';
import { scriptedModel as docScriptedModel } from 'rx-tool-loop/testing';
// asks for file_delete, and answers once a tool result is in (in any process)
const provider = docScriptedModel((request) =>
  request.messages.at(-1)?.role === 'tool' ? { text: 'Deleted.' } : { toolCalls: [{ name: 'file_delete', arguments: { path: 'notes.txt' } }] });
const model = 'scripted';
const tools = [docDefineTool({ name: 'file_delete', description: 'Deletes a file', parameters: docZ.object({ path: docZ.string() }), risk: 'write', execute: async ({ path }) => \`deleted \${path}\` })];
const render = (event: DocTurnEvent) => { if (event.type === 'done') console.log(JSON.stringify({ done: event.reason, text: event.text })); };
`;

const PRELUDES: Record<string, string> = {
  'agent-parts': AGENT_PARTS,
  'text-store': `let saved = '';\nconst store = { save: async (text: string) => void (saved = text), load: async () => saved };\n`,
  'openai-parts': `declare const baseURL: string;\ndeclare const apiKey: string;\n`,
  'durable-parts': `import type PgBossType from 'pg-boss';
import type { Agent as DocAgent } from 'rx-tool-loop';
declare const boss: PgBossType;
declare const agent: DocAgent;
declare const requestId: string;
`,
  'console-parts': `import type pgType from 'pg';
import type { Agent as DocAgent } from 'rx-tool-loop';
declare const pool: pgType.Pool;
declare const agent: DocAgent;
`,
  'app-parts': `import type { TurnEvent as DocAppEvent } from 'rx-tool-loop';
import type { TurnQueue as DocTurnQueue, TurnStore as DocTurnStore } from 'rx-tool-loop/durable';
declare const store: DocTurnStore;
declare const queue: DocTurnQueue;
declare const message: string, conversationId: string, requestId: string, user: string;
declare function send(event: DocAppEvent): void;
`,
};

interface Plan {
  readonly block: MarkdownBlock;
  readonly mode: 'run' | 'typecheck' | 'serve' | 'join';
  readonly source: string;
  readonly prints?: string;
}

/** The block's directive read, and its source with its prelude (undefined: no directive). */
function plan(block: MarkdownBlock, page: readonly MarkdownBlock[]): Plan | undefined {
  if (block.directive === undefined) return undefined;
  const [mode, ...options] = block.directive.split(',').map((s) => s.trim());
  const option = (key: string) => options.find((o) => o.startsWith(`${key} `))?.slice(key.length + 1);
  if (!['run', 'typecheck', 'serve', 'join'].includes(mode)) throw new Error(`${block.file}:${block.line}: unknown doc-test mode ${mode}`);
  const preludes = option('prelude')?.split('+') ?? [];
  for (const prelude of preludes) if (PRELUDES[prelude] === undefined) throw new Error(`${block.file}:${block.line}: unknown prelude ${prelude}`);
  const after = option('after');
  const first = after === undefined ? undefined : page.find((b) => b.directive?.split(',').some((o) => o.trim() === `as ${after}`));
  if (after !== undefined && first === undefined) throw new Error(`${block.file}:${block.line}: no block "as ${after}"`);
  let source = [...preludes.map((prelude) => PRELUDES[prelude]), first?.code, block.code].filter(Boolean).join('\n');
  if (source.includes("'./examples/")) source = onSources(source);
  return { block, mode: mode as Plan['mode'], source: source.includes('import ') ? source : `${source}\nexport {};\n`, prints: option('prints')?.replace(/^"|"$/g, '') };
}

/**
 * A block that uses this repository's examples (not part of the package) is checked against the
 * sources they are built on: the examples and the package's entry points, from src/.
 */
function onSources(source: string): string {
  return source
    .replaceAll("'./examples/", "'../../examples/")
    .replace(/'rx-tool-loop(\/\w+)?'/g, (_, entry?: string) => `'../../src${entry === '/operators' ? '/operators' : `${entry ?? ''}/index`}.js'`);
}

const pages = markdownPages();
const blocks = pages.flatMap(markdownBlocks);
const plans = blocks.map((block) => plan(block, blocks.filter((b) => b.file === block.file)));
const name = (b: MarkdownBlock) => `${b.file} #${b.index} (line ${b.line}: ${b.firstLine.trim().slice(0, 60)})`;

mkdirSync(join(root, '.scratch'), { recursive: true });
const dir = mkdtempSync(join(root, '.scratch', 'doc-blocks-')); // inside the package: `rx-tool-loop` is itself
const fileOf = (p: Plan) => join(dir, `${p.block.file.replace(/\W/g, '-')}-${p.block.index}.ts`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the TypeScript blocks of README.md and docs/', () => {
  it('each say how they are checked', () => {
    expect(pages).toContain('docs/scale-out.md');
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(blocks.filter((b) => b.directive === undefined).map(name)).toEqual([]);
  });

  it('type-check against the built package', async () => {
    const files = plans.flatMap((p) => (p ? [p] : [])).map((p) => (writeFileSync(fileOf(p), p.source), fileOf(p)));
    const options = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node'];
    const result = await exec(process.execPath, [tsc, ...options, ...files], { cwd: dir }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe('');
  }, 120_000);

  for (const p of plans.filter((p) => p?.mode === 'run')) {
    it(`runs ${name(p!.block)}`, async () => {
      const cwd = mkdtempSync(join(dir, 'run-'));
      writeFileSync(join(cwd, 'block.ts'), p!.source.replaceAll("'../../", "'../../../"));
      const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'block.ts'], { cwd, env: { ...process.env, RTL_SNAPSHOT_KEY: 'doc-test-snapshot-key-0123456789' } });
      if (p!.prints !== undefined) expect(stdout).toContain(p!.prints);
    }, 120_000);
  }

  for (const file of pages) {
    const serve = plans.find((p) => p?.block.file === file && p.mode === 'serve');
    const join_ = plans.find((p) => p?.block.file === file && p.mode === 'join');
    if (!serve && !join_) continue;
    it(`${file}: the recipe's second process resumes the turn the first parked`, async () => {
      expect(serve && join_, 'a recipe has a serve and a join block').toBeTruthy();
      const port = String(await freePort());
      const cwd = mkdtempSync(join(dir, 'recipe-'));
      const env = { RTL_SNAPSHOT_KEY: 'doc-test-snapshot-key-0123456789' };
      // the blocks as written, on a free port; the first says when its turn parked
      writeFileSync(join(cwd, 'serve.ts'), `${serve!.source.replaceAll('5433', port)}\nconsole.log(JSON.stringify({ parked: done.type === 'done' && done.reason }));\n`);
      writeFileSync(join(cwd, 'join.ts'), join_!.source.replaceAll('5433', port));
      const first = startScript(join(cwd, 'serve.ts'), [], env, cwd);
      try {
        expect(JSON.parse(await first.line((l) => l.startsWith('{"parked"')))).toEqual({ parked: 'paused' });
        const second = startScript(join(cwd, 'join.ts'), [], env, cwd);
        try {
          expect(JSON.parse(await second.line((l) => l.startsWith('{"done"')))).toEqual({ done: 'final', text: 'Deleted.' });
        } finally {
          second.process.kill();
        }
      } finally {
        first.process.kill();
      }
    }, 90_000);
  }
});
