/**
 * PostgreSQL's own CPU per copilot statement, the app's against the floor's, one statement after
 * another on one connection: the backend's utime + stime from /proc over `COPILOT_STATEMENTS`
 * (2,000) runs of each step, after 200 of warm-up. Prints only.
 *
 * - session: the app's principal lookup (PostgresSessionStore) and the floor's (copilot-floor-server.ts);
 * - admit / reserve: the app's checks and reservation (PostgresCopilotAdmission) and the floor's `ai_reserve`;
 * - settle: the app's settlement (PostgresAiCapacity) and the floor's `ai_settle`.
 *
 * Each admit or reserve is settled at once, so the tables grow as in a bench round.
 *
 *   npx tsx test/bench/copilot-statements.ts
 */
import { createHash } from 'node:crypto';
import { Database, type PreparedSql } from '../../adapters/postgres/database';
import { openOrm } from '../../adapters/postgres/orm';
import { PostgresAiCapacity } from '../../adapters/postgres/postgres-ai-capacity';
import { PostgresCopilotAdmission } from '../../adapters/postgres/postgres-copilot-admission';
import { PostgresSessionStore } from '../../adapters/postgres/postgres-session-store';
import { SystemClock } from '../../adapters/system/system-clock';
import type { Reservation } from '../../core/ai/ai-capacity.port';
import { createTestDatabase } from '../support/postgres';
import { seedCopilotOrganizations } from './copilot-seed';
import { atCleanUp, runBench } from './lifecycle';
import { processTicks, TICK_MICROS } from './quiet-machine';

const RUNS = Number(process.env.COPILOT_STATEMENTS ?? 2_000);
const WARMUP = 200;
const MODEL = 'gpt-5-mini';

// The floor's statements, as copilot-floor-server.ts sends them.
const FLOOR_SESSION: PreparedSql = {
  name: 'floor_session',
  text: `select u.id as user_id, u.organization_id from session s join app_user u on u.id = s.user_id join organization o on o.id = u.organization_id
   where s.token_hash = $1 and s.expires_at > now() and u.status = 'active' and o.status = 'active'`,
};
const FLOOR_RESERVE: PreparedSql = { name: 'floor_reserve', text: `select id from ai_reserve($1, $2, 'improve', $3, $4, -1, $5, false, 200, 2000, $6, $7)` };
const FLOOR_SETTLE: PreparedSql = { name: 'floor_settle', text: `select id from ai_settle($1, $2, $3, 'improve', $4, $5, -1, false, $6, $7, null, $8)` };

/** The backend's own CPU ticks (utime + stime). */
const backendTicks = (pid: number): number => processTicks(pid)!.selfTicks;

async function main(): Promise<void> {
  const db = await createTestDatabase();
  atCleanUp(() => db.drop());
  const seeded = await seedCopilotOrganizations(db.database, 1, 'Statements');
  const [appCaller, floorCaller] = [seeded.appCallers[0]!, seeded.floorCallers[0]!];
  const orm = await openOrm({ clientUrl: db.url, poolMax: 1 });
  atCleanUp(() => orm.close(true));
  const clock = new SystemClock();
  const database = new Database(orm, clock);
  const sessions = new PostgresSessionStore(database);
  const admission = new PostgresCopilotAdmission(database);
  const capacity = new PostgresAiCapacity(database);
  const [{ pid }] = (await database.select<{ pid: number }>('select pg_backend_pid() as pid', [])) as [{ pid: number }];
  const hash = (cookie: string) => createHash('sha256').update(cookie.slice(cookie.indexOf('=') + 1), 'utf8').digest('hex');
  const appHash = hash(appCaller.cookie);
  const floorHash = hash(floorCaller.cookie);
  const principal = (await sessions.findByTokenHash(appHash))!;
  const floorWho = (await database.select<{ user_id: number; organization_id: number }>(FLOOR_SESSION, [floorHash]))[0]!;
  const periodStart = () => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  };

  const steps: Record<string, { app: () => Promise<unknown>; floor: () => Promise<unknown> }> = {
    session: {
      app: () => sessions.findByTokenHash(appHash),
      floor: () => database.select(FLOOR_SESSION, [floorHash]),
    },
  };
  // admit/reserve then settle, timed separately: the pending reservation is settled by the next step.
  let appHeld: Reservation | undefined;
  let floorHeld: number | undefined;
  steps['admit (app) / reserve (floor)'] = {
    app: async () => {
      const now = clock.now();
      const admitted = await admission.admit({
        owner: { organizationId: principal.organizationId, userId: principal.userId },
        noteId: appCaller.noteId,
        feature: 'improve',
        model: MODEL,
        aiConfigured: true,
        promptCharacters: 60,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 600_000),
      });
      if (admitted.outcome !== 'reserved') throw new Error(`admit answered ${admitted.outcome}`);
      appHeld = admitted.reservation;
    },
    floor: async () => {
      const now = new Date();
      floorHeld = (await database.select<{ id: number }>(FLOOR_RESERVE, [floorWho.organization_id, floorWho.user_id, MODEL, periodStart(), 150, now, new Date(now.getTime() + 600_000)]))[0]!.id;
    },
  };
  steps.settle = {
    app: () => capacity.settle(appHeld!, { inputTokens: 150, outputTokens: 400, costUsd: 0.001, at: clock.now() }),
    floor: () => database.select(FLOOR_SETTLE, [floorHeld, floorWho.organization_id, floorWho.user_id, MODEL, periodStart(), 150, 400, new Date()]),
  };

  // Each side in turn, the steps of one call in order, so both tables grow alike.
  const ticks: Record<string, { app: number; floor: number }> = Object.fromEntries(Object.keys(steps).map((k) => [k, { app: 0, floor: 0 }]));
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    for (const side of ['app', 'floor'] as const) {
      for (const [name, step] of Object.entries(steps)) {
        const before = backendTicks(pid);
        await step[side]();
        if (i >= WARMUP) ticks[name]![side] += backendTicks(pid) - before;
      }
    }
  }
  process.stdout.write(`PostgreSQL backend CPU per statement, ${RUNS} runs each after ${WARMUP} of warm-up (10 ms ticks summed; ±${(TICK_MICROS / RUNS).toFixed(0)} µs):\n`);
  for (const [name, { app, floor }] of Object.entries(ticks)) {
    const us = (t: number) => ((t * TICK_MICROS) / RUNS).toFixed(0);
    process.stdout.write(`  ${name.padEnd(32)} app ${us(app).padStart(5)} µs   floor ${us(floor).padStart(5)} µs\n`);
  }
}

runBench('copilot statements', main, 10 * 60_000);
