import { defineConfig } from 'vitest/config';

// `npm run test:stress`: the long versions of test/reliability (10x runs and turns). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/stress/**/*.stress.ts'],
    testTimeout: 600_000,
    pool: 'forks',
  },
});
