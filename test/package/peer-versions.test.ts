import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const json = async (path: string) => JSON.parse(await readFile(`${root}${path}`, 'utf8')) as Record<string, Record<string, string>>;

describe('the peer versions that go together', () => {
  it("the README's install line pins every peer at the version CI installs (package.json's devDependencies)", async () => {
    const readme = await readFile(`${root}README.md`, 'utf8');
    const specs = /^npm install (.+)$/m.exec(readme)?.[1].split(' ') ?? [];
    const pinned = Object.fromEntries(specs.map((spec) => [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)]));
    const pkg = await json('package.json');
    expect(Object.keys(pinned).sort()).toEqual([...Object.keys(pkg.peerDependencies), '@electric-sql/pglite-socket'].sort());
    for (const [name, version] of Object.entries(pinned)) expect(version, name).toBe(pkg.devDependencies[name]);
  });

  it('the pinned pglite-socket pins the pinned PGlite (npm would refuse the pair otherwise)', async () => {
    const socket = await json('node_modules/@electric-sql/pglite-socket/package.json');
    const pkg = await json('package.json');
    expect(socket.version).toBe(pkg.devDependencies['@electric-sql/pglite-socket']);
    expect(socket.peerDependencies['@electric-sql/pglite']).toBe(pkg.devDependencies['@electric-sql/pglite']);
  });
});
