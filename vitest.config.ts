import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'marbles/**/*.marble.test.ts'],
    // Source errors are the typecheck script's job; here only the type tests count.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], ignoreSourceErrors: true },
    testTimeout: 20_000,
    pool: 'forks',
  },
});
