import { defineConfig } from 'vitest/config';

// Three projects: `unit` is pure (in-memory adapters, no network), `int` talks to real
// PostgreSQL/Redis/PGlite, `e2e` starts the Koa app and speaks HTTP.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['core/**/*.test.ts', 'adapters/**/*.test.ts', 'app/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/contracts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'int',
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
