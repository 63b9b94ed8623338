import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// CI's second provider run (.ci/run, on Node 22): the tests that drive the OpenAI provider through a
// real `openai` client against the fixture server, with `openai` (and its subpaths) resolved to
// openai 7 from .ci/openai7 instead of the root devDependency (openai 6). test/provider/openai-version
// checks that the client really is 7.
const openai7 = fileURLToPath(new URL('./.ci/openai7/node_modules/openai', import.meta.url));

export default defineConfig({
  resolve: { alias: [{ find: /^openai(\/.*)?$/, replacement: `${openai7}$1` }] },
  test: {
    include: [
      'test/provider/*.test.ts',
      'test/observe/otel-chat-spans.test.ts',
      'test/reliability/provider-faults.test.ts',
      'test/reliability/rendering-scrub.test.ts',
    ],
    env: { RTL_EXPECT_OPENAI_MAJOR: '7' },
    testTimeout: 20_000,
    pool: 'forks',
  },
});
