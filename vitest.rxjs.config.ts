import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// CI's run of the suite against another rxjs (.ci/run): `rxjs` and its subpaths (`rxjs/testing`)
// resolve to the copy in RTL_RXJS_DIR (default: .ci/rxjs-oldest, the oldest release the peer range
// allows) instead of the root devDependency (the newest 7.x). test/operators/rxjs-version.test.ts
// checks that the copy loaded is RTL_EXPECT_RXJS. The package tests load the built package in
// child processes, which resolve the root's rxjs, so they are left to the main run.
const rxjs = process.env.RTL_RXJS_DIR ?? fileURLToPath(new URL('./.ci/rxjs-oldest/node_modules/rxjs', import.meta.url));

export default mergeConfig(
  base,
  defineConfig({
    resolve: { alias: [{ find: /^rxjs(\/.*)?$/, replacement: `${rxjs}$1` }] },
    test: {
      exclude: ['test/package/**', 'node_modules/**'],
      env: { RTL_EXPECT_RXJS: process.env.RTL_EXPECT_RXJS ?? '7.8.0' },
    },
  }),
);
