import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Four kinds of test: `unit` is pure (in-memory adapters, no network), `int` talks to real
// PostgreSQL/Redis/PGlite, `e2e` starts the Koa app and speaks HTTP, `reliability` runs fault
// and scale scenarios on its own PostgreSQL cluster and Redis (test/reliability/). `int-timed`
// and `e2e-timed` are the int and e2e files that hold the code to a wall-clock bound.

/**
 * Files that assert how long something takes (a time-out, a bound, a latency margin, a pool wait
 * on PGlite's single connection). They were written for a machine running one test file, so they
 * still run one at a time, never beside the parallel files: under three files at a time on two
 * shared cores, database.int's 50 queued PGlite transactions once waited past the 2 s pool limit.
 */
const TIMED_INT = [
  'adapters/postgres/database.int.test.ts',
  'adapters/rate-limit/flexible-rate-limiter.int.test.ts',
  'adapters/oidc/openid-client-identity-provider.int.test.ts',
  'test/contracts/language-model-openai.int.test.ts',
];
const TIMED_E2E = ['test/e2e/redis-frozen.e2e.test.ts', 'test/e2e/database-unresponsive.e2e.test.ts', 'test/e2e/startup.e2e.test.ts'];

/** One file at a time, in the group after the parallel one (see `reliability`). */
const ALONE = { fileParallelism: false, sequence: { groupOrder: 1 } } as const;

export default defineConfig({
  test: {
    // Names the run, so that its workers share one migrated template database and PGlite data
    // dir, copied for each test database (test/support/test-templates.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // At least three files at a time, also on two cores (vitest's default there is one). The int
    // and e2e files mostly wait: on PostgreSQL and Redis, on child processes, on the network; one
    // at a time, the suite kept about a third of one core busy (baseline: 520 CPU-s in 1,580 s).
    // Every file has its own database, Redis key prefix and ports, so files do not see each other.
    // More than three on two cores: the database-heavy files only slowed each other down.
    maxWorkers: Math.max(3, availableParallelism() - 1),
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
          // In parallel with unit and e2e: one file at a time queued all 44 files after the rest.
          name: 'int',
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**', ...TIMED_INT],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'int-timed',
          include: TIMED_INT,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...ALONE,
        },
      },
      {
        test: {
          // Fault and scale scenarios: their own PostgreSQL cluster and Redis, child processes,
          // timed load. Their own group (never alongside the parallel projects) and one file at a
          // time, so the rest of the suite does not share the two cores with the load.
          name: 'reliability',
          include: ['test/reliability/**/*.reliability.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          ...ALONE,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**', ...TIMED_E2E],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e-timed',
          include: TIMED_E2E,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...ALONE,
        },
      },
    ],
  },
});
