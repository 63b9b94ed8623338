import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// CI's AI SDK run (.ci/run, on Node 22 and 24): the tests that drive aiSdkProvider through a real
// AI SDK model against the fixture server, with `@ai-sdk/openai-compatible` and `@ai-sdk/provider`
// (and their subpaths) resolved to the newest AI SDK from .ci/ai-newest (ai 7's line, Node 22+)
// instead of the root devDependencies. test/provider/ai-sdk-version.test.ts checks that the model
// loaded implements RTL_EXPECT_AI_SDK_SPEC; .ci/ai-newest/model-type.test-d.ts checks that the
// newest LanguageModel types fit `AiSdkLanguageModel`. The spec v2 model (`-v2`) stays the root's.
const newest = fileURLToPath(new URL('./.ci/ai-newest/node_modules/@ai-sdk/', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [{ find: /^@ai-sdk\/(openai-compatible|provider)(\/.*)?$/, replacement: `${newest}$1$2` }],
  },
  test: {
    include: ['test/provider/ai-sdk-*.test.ts'],
    typecheck: { enabled: true, include: ['.ci/ai-newest/*.test-d.ts'], tsconfig: '.ci/ai-newest/tsconfig.json', ignoreSourceErrors: true },
    env: { RTL_EXPECT_AI_SDK_SPEC: 'v4' },
    testTimeout: 20_000,
    pool: 'forks',
  },
});
