import { defineConfig } from 'vitest/config';

// Four projects: `unit` is pure (in-memory adapters, no network), `int` talks to real
// PostgreSQL/Redis/PGlite, `e2e` starts the Koa app and speaks HTTP, `reliability` runs fault
// and scale scenarios on its own PostgreSQL cluster and Redis (test/reliability/).
export default defineConfig({
  test: {
    // Names the run, so that its workers share one migrated template database and PGlite data
    // dir, copied for each test database (test/support/test-templates.ts).
    globalSetup: ['test/support/global-setup.ts'],
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
          // Fault and scale scenarios: their own PostgreSQL cluster and Redis, child processes,
          // timed load. Their own group (never alongside the other projects) and one file at a
          // time, so the rest of the suite does not share the two cores with the load.
          name: 'reliability',
          include: ['test/reliability/**/*.reliability.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
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
