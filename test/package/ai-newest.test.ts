import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFile(`${root}${path}`, 'utf8');
const json = async <T>(path: string) => JSON.parse(await read(path)) as T;

type Pkg = { dependencies: Record<string, string>; devDependencies: Record<string, string> };
type Lock = { packages: Record<string, { version?: string }> };

describe('CI runs the AI SDK provider tests with the root AI SDK packages and with the newest', () => {
  it('.ci/ai-newest pins one exact @ai-sdk/openai-compatible 3 and @ai-sdk/provider 4, in its lock too', async () => {
    const pkg = await json<Pkg>('.ci/ai-newest/package.json');
    expect(pkg.dependencies).toEqual({
      '@ai-sdk/openai-compatible': expect.stringMatching(/^3\.\d+\.\d+$/),
      '@ai-sdk/provider': expect.stringMatching(/^4\.\d+\.\d+$/),
    });
    const lock = await json<Lock>('.ci/ai-newest/package-lock.json');
    for (const [name, version] of Object.entries(pkg.dependencies)) expect(lock.packages[`node_modules/${name}`]?.version).toBe(version);
  });

  it('.ci/run runs the newest-AI-SDK config under the Node 22 and 24 binaries, with their reports in the summed line', async () => {
    const run = await read('.ci/run');
    expect(run).toContain('npm ci --prefix .ci/ai-newest');
    expect(run).toMatch(/"\$bin" node_modules\/vitest\/vitest\.mjs run --config vitest\.ai-newest\.config\.ts .*--outputFile\.json="\$out"/);
    expect(run).toContain('out=.vitest-results-ai-newest-node$major.json');
  });

  it('the config resolves the AI SDK packages from .ci/ai-newest, expects spec v4 and type-checks the newest types', async () => {
    const config = await read('vitest.ai-newest.config.ts');
    expect(config).toContain("'./.ci/ai-newest/node_modules/@ai-sdk/'");
    expect(config).toContain("RTL_EXPECT_AI_SDK_SPEC: 'v4'");
    expect(config).toContain("include: ['.ci/ai-newest/*.test-d.ts']");
  });

  it('the README states the versions tested', async () => {
    const minor = (v: string) => v.replace(/^\^/, '').split('.').slice(0, 2).join('\\.');
    const rootPkg = await json<Pkg>('package.json');
    const newest = (await json<Pkg>('.ci/ai-newest/package.json')).dependencies['@ai-sdk/openai-compatible'];
    const v2 = rootPkg.devDependencies['@ai-sdk/openai-compatible-v2'].split('@').pop() as string;
    expect(await read('README.md')).toMatch(
      new RegExp(`\`@ai-sdk/openai-compatible\` ${minor(rootPkg.devDependencies['@ai-sdk/openai-compatible'])} \\(spec v3\\) and ${minor(v2)} \\(spec v2\\)[^]*with ${minor(newest)}\\s+\\(spec v4`),
    );
  });
});
