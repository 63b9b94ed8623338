import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** What an app that installed the tarball has: the package, its dependency and the peers it uses. */
const linked = ['rxjs', 'zod', '@opentelemetry/api', '@types/node'];

const esm = `import { createAgent, defineTool, openAIChatProvider, type OpenAIChatClient, type TurnEvent } from 'rx-tool-loop';
import { prepareCalls } from 'rx-tool-loop/operators';
import { eventCode, scriptedModel } from 'rx-tool-loop/testing';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const agent = createAgent({ provider: scriptedModel([{ text: 'hi' }]), model: 'm', tools: [add] });
const codes: string[] = [];
agent.run({ message: 'x' }).subscribe((event: TurnEvent) => codes.push(eventCode(event)));
declare const client: OpenAIChatClient;
export const provider = openAIChatProvider(client);
export const operator: unknown = prepareCalls;
`;

const cjs = `import main = require('rx-tool-loop');
import testing = require('rx-tool-loop/testing');
export const agent = main.createAgent({ provider: testing.scriptedModel([{ text: 'hi' }]), model: 'm', tools: [] });
`;

let app: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'rtl-app-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', app], { cwd: root });
  packed = (JSON.parse(stdout) as (typeof packed)[])[0];
  const target = join(app, 'node_modules/rx-tool-loop');
  await mkdir(target, { recursive: true });
  await run('tar', ['-xzf', join(app, packed.filename), '-C', target, '--strip-components=1']);
  for (const name of linked) {
    await mkdir(dirname(join(app, 'node_modules', name)), { recursive: true });
    await symlink(join(root, 'node_modules', name), join(app, 'node_modules', name), 'dir');
  }
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await writeFile(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        noEmit: true,
        skipLibCheck: false, // tsc's default: the d.ts files are checked, as in the user's report
      },
      include: ['app.ts', 'app.cts'],
    }),
  );
  await writeFile(join(app, 'app.ts'), esm);
  await writeFile(join(app, 'app.cts'), cjs);
}, 60_000);

afterAll(async () => {
  if (app) await rm(app, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships the LICENSE (MIT), the README and the built entries', async () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.d.ts', 'dist/testing/index.d.ts']));
    const license = await readFile(join(app, 'node_modules/rx-tool-loop/LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the rx-tool-loop authors\n/);
  });

  it('marks every optional peer with the boolean true', async () => {
    const pkg = JSON.parse(await readFile(join(app, 'node_modules/rx-tool-loop/package.json'), 'utf8')) as {
      peerDependenciesMeta: Record<string, { optional: unknown }>;
      files: string[];
    };
    expect(pkg.peerDependenciesMeta).toEqual({
      openai: { optional: true },
      '@modelcontextprotocol/sdk': { optional: true },
      pg: { optional: true },
      'pg-boss': { optional: true },
      '@electric-sql/pglite': { optional: true },
    });
    expect(pkg.files).toContain('LICENSE');
  });

  it("type-checks in an app without the optional peer 'openai' (import and require, full lib check)", async () => {
    expect(existsSync(join(app, 'node_modules/openai'))).toBe(false);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).then(
      () => ({ code: 0, out: '' }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, out: error.stdout ?? String(error) }),
    );
    expect(result).toEqual({ code: 0, out: '' });
  }, 60_000);
});
