import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Database } from '../../../adapters/postgres/database';
import { migrate, openOrm } from '../../../adapters/postgres/orm';
import { SystemClock } from '../../../adapters/system/system-clock';
import { testSessions } from '../../support/sessions';
import type { PgCluster } from './pg-cluster';

/** A database on the cluster with every migration applied, as `npm run cli -- migrate` leaves it. */
export async function migratedDatabase(cluster: PgCluster, name = 'tenantkit'): Promise<string> {
  const url = await cluster.createDatabase(name);
  const orm = await openOrm({ clientUrl: url, poolMax: 2 });
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
  }
  return url;
}

/** `count` members of one organization with live sessions; returns their session cookies. */
export async function seedMembers(url: string, count: number): Promise<string[]> {
  const orm = await openOrm({ clientUrl: url, poolMax: 2 });
  try {
    const sessions = testSessions(new Database(orm, new SystemClock()));
    const organization = await sessions.newOrganization(`Load ${randomUUID().slice(0, 8)}`);
    const cookies: string[] = [];
    for (let i = 0; i < count; i += 1) cookies.push(`session_id=${(await sessions.loginAs('member', organization)).token}`);
    return cookies;
  } finally {
    await orm.close(true);
  }
}

/** Runs one query on a fresh connection (the app's pool is not involved). */
export async function query<Row extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
