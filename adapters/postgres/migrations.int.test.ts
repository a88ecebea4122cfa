import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, createTestPglite, requirePostgres } from '../../test/support/postgres';
import { migrations } from './migrations';
import { OrganizationSchema } from './schema/accounts.entities';

/**
 * One migration set for both databases: PostgreSQL 15 (the local server) and embedded PGlite.
 * After up(), the entities and the migrated schema must agree (an empty diff), and down() must
 * undo everything up() did.
 */
const postgres = await requirePostgres();

interface Backend {
  orm: MikroORM;
  close(): Promise<void>;
}

const backends: Array<[name: string, enabled: boolean, open: () => Promise<Backend>]> = [
  ['PostgreSQL', postgres, async () => {
    const db = await createTestDatabase();
    return { orm: db.orm, close: () => db.drop() };
  }],
  ['PGlite', true, async () => {
    const pglite = await createTestPglite();
    return { orm: pglite.orm, close: () => pglite.close() };
  }],
];

/** The id columns of the AI tables that take a row per copilot call, and the columns that hold those ids. */
const AI_ID_COLUMNS = [
  ['ai_reservation', 'id'],
  ['llm_usage_log', 'id'],
  ['ai_credit_transaction', 'id'],
  ['ai_credit_transaction', 'usage_id'],
  ['ai_overage_report', 'usage_id'],
] as const;
const AI_ID_SEQUENCES = ['ai_reservation_id_seq', 'llm_usage_log_id_seq', 'ai_credit_transaction_id_seq'];
/** The last migration before the AI ids became int8. */
const AI_IDS_INT8_PREVIOUS = 'Migration20261126204914_InvitationByApiKey';

const schemaDiff = async (orm: MikroORM) => (await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim();

async function publicTables(orm: MikroORM): Promise<string[]> {
  const rows = await orm.em.execute<Array<{ table_name: string }>>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((row) => row.table_name);
}

describe.each(backends)('migrations on %s', (_name, enabled, open) => {
  let backend: Backend;

  beforeAll(async () => {
    if (enabled) backend = await open();
  });

  afterAll(async () => {
    await backend?.close();
  });

  test.skipIf(!enabled)('every migration is applied once, in order', async () => {
    const executed = await backend.orm.migrator.getExecuted();
    expect(executed.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await backend.orm.migrator.getPending()).toEqual([]);
  });

  test.skipIf(!enabled)('entities and migrations agree: the schema diff is empty', async () => {
    expect(await schemaDiff(backend.orm)).toBe('');
  });

  test.skipIf(!enabled)("values containing ';' round-trip through the ORM (pitfall A1)", async () => {
    const name = "Smith; John'; drop table organization; --";
    const at = new Date('2026-01-02T03:04:05.000Z');
    const em = backend.orm.em.fork();
    em.create(OrganizationSchema, { name, status: 'active', overageEnabled: false, requireMfa: false, createdAt: at, updatedAt: at });
    await em.flush();

    const read = backend.orm.em.fork();
    const found = await read.findOne(OrganizationSchema, { name });
    expect(found).toMatchObject({ name, createdAt: at });
    expect(await read.count(OrganizationSchema, { name })).toBe(1);
    expect(await read.nativeUpdate(OrganizationSchema, { name }, { name: 'Doe; Jane' })).toBe(1);
    const rows = await backend.orm.em.execute('select name from organization where name = ?', ['Doe; Jane']);
    expect(rows).toEqual([{ name: 'Doe; Jane' }]);
    await backend.orm.em.execute('delete from organization');
  });

  test.skipIf(!enabled)('a database holding rows at the previous release upgrades, keeping them', async () => {
    const migrator = backend.orm.migrator;
    // The release before account security and plans, both added since: what a deployed database holds.
    const previous = 'Migration20261124070047_DropSqlClockDefaults';
    await migrator.down({ to: previous });
    // Written the way the previous release wrote it: every timestamp given, sessions without
    // user agent, IP or last_seen_at (which the upgrade fills in from created_at).
    const at = '2026-11-20T10:00:00.000Z';
    await backend.orm.em.execute(`insert into organization (id, name, status, created_at, updated_at) values (900001, 'Before the upgrade', 'active', '${at}', '${at}')`);
    await backend.orm.em.execute(
      `insert into app_user (id, organization_id, email, role, status, created_at, updated_at) values (900001, 900001, 'old@example.test', 'org_admin', 'active', '${at}', '${at}')`,
    );
    await backend.orm.em.execute(
      `insert into session (token_hash, user_id, created_at, expires_at) values ('${'a'.repeat(64)}', 900001, '${at}', '2026-11-21T10:00:00.000Z')`,
    );
    await backend.orm.em.execute(
      `insert into subscription (organization_id, status, stripe_customer_id, event_at, updated_at) values (900001, 'active', 'cus_before', '${at}', '${at}')`,
    );
    const upgraded = await migrator.up();
    const since = migrations.findIndex((m) => m.name === previous) + 1;
    expect(upgraded.map((m) => m.name)).toEqual(migrations.slice(since).map((m) => m.name));
    const subscriptions = await backend.orm.em.execute<Array<{ status: string; stripe_customer_id: string; cancel_at_period_end: boolean }>>(
      'select status, stripe_customer_id, cancel_at_period_end from subscription',
    );
    expect(subscriptions).toEqual([{ status: 'active', stripe_customer_id: 'cus_before', cancel_at_period_end: false }]);
    const plans = await backend.orm.em.execute<Array<{ name: string; is_default: boolean }>>('select name, is_default from plan order by id');
    expect(plans).toEqual([
      { name: 'Free', is_default: true },
      { name: 'Professional', is_default: false },
      { name: 'Premium', is_default: false },
    ]);
    const rows = await backend.orm.em.execute<Array<{ name: string; require_mfa: boolean }>>('select name, require_mfa from organization');
    expect(rows).toEqual([{ name: 'Before the upgrade', require_mfa: false }]);
    const sessions = await backend.orm.em.execute<Array<{ created_at: unknown; last_seen_at: unknown; user_agent: unknown }>>(
      'select created_at, last_seen_at, user_agent from session',
    );
    expect(sessions).toHaveLength(1);
    expect(new Date(sessions[0]!.last_seen_at as string)).toEqual(new Date(sessions[0]!.created_at as string));
    expect(sessions[0]!.user_agent).toBeNull();
    // Versions start equal: nobody is logged out by the upgrade.
    const versions = await backend.orm.em.execute<Array<{ session_version: number; user_version: number }>>(
      'select s.credentials_version as session_version, u.credentials_version as user_version from session s join app_user u on u.id = s.user_id',
    );
    expect(versions).toEqual([{ session_version: 0, user_version: 0 }]);
    await backend.orm.em.execute('delete from organization');
    expect(await schemaDiff(backend.orm)).toBe('');
  });

  test.skipIf(!enabled)("the AI tables' ids, their sequences and the usage ids that point at them are int8; down() of that step makes them int4 again, keeping the rows", async () => {
    const types = async () => {
      const columns = await backend.orm.em.execute<Array<{ name: string; type: string }>>(
        `select table_name || '.' || column_name as name, data_type as type from information_schema.columns
          where table_schema = 'public' and (table_name, column_name) in (${AI_ID_COLUMNS.map(([table, column]) => `('${table}', '${column}')`).join(', ')})
          union all
          select sequencename::text, data_type::text from pg_sequences where schemaname = 'public' and sequencename in ('ai_reservation_id_seq', 'llm_usage_log_id_seq', 'ai_credit_transaction_id_seq')
          order by 1`,
      );
      return Object.fromEntries(columns.map((row) => [row.name, row.type]));
    };
    const all = (type: string) => Object.fromEntries([...AI_ID_COLUMNS.map(([table, column]) => `${table}.${column}`), ...AI_ID_SEQUENCES].sort().map((name) => [name, type]));
    expect(await types()).toEqual(all('bigint'));

    const at = '2026-11-20T10:00:00.000Z';
    await backend.orm.em.execute(`insert into organization (id, name, status, overage_enabled, require_mfa, created_at, updated_at) values (900002, 'AI ids', 'active', false, false, '${at}', '${at}')`);
    await backend.orm.em.execute(
      `insert into llm_usage_log (id, organization_id, feature, model, input_tokens, output_tokens, allotment_tokens, credit_tokens, overage_tokens, period_start, created_at)
        values (41, 900002, 'improve', 'gpt-test', 1, 2, 0, 3, 0, '${at}', '${at}')`,
    );
    await backend.orm.em.execute(`insert into ai_credit_transaction (id, organization_id, kind, tokens, usage_id, created_at) values (42, 900002, 'usage', -3, 41, '${at}')`);
    await backend.orm.em.execute(
      `insert into ai_overage_report (usage_id, organization_id, tokens, occurred_at, status, attempts, next_attempt_at, created_at) values (41, 900002, 5, '${at}', 'pending', 0, '${at}', '${at}')`,
    );
    // As text: the driver hands int4 over as a number, int8 as text.
    const rows = async () =>
      backend.orm.em.execute<Array<{ usage: string; transaction: string; report: string }>>(
        'select u.id::text as usage, t.id::text as transaction, r.usage_id::text as report from llm_usage_log u join ai_credit_transaction t on t.usage_id = u.id join ai_overage_report r on r.usage_id = u.id',
      );
    const stored = await rows();
    expect(stored).toEqual([{ usage: '41', transaction: '42', report: '41' }]);

    await backend.orm.migrator.down({ to: AI_IDS_INT8_PREVIOUS });
    expect(await types()).toEqual(all('integer'));
    expect(await rows()).toEqual(stored);

    await backend.orm.migrator.up();
    expect(await types()).toEqual(all('bigint'));
    expect(await rows()).toEqual(stored);
    await backend.orm.em.execute('delete from organization where id = 900002');
    expect(await schemaDiff(backend.orm)).toBe('');
  });

  test.skipIf(!enabled)('down() to the start removes every table; up() again restores an identical schema', async () => {
    const tablesAfterUp = await publicTables(backend.orm);
    const migrator = backend.orm.migrator;
    const reverted = await migrator.down({ to: 0 });
    expect(reverted.map((m) => m.name)).toEqual(migrations.map((m) => m.name).reverse());
    expect(await publicTables(backend.orm)).toEqual(['mikro_orm_migrations']);

    const reapplied = await migrator.up();
    expect(reapplied.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await publicTables(backend.orm)).toEqual(tablesAfterUp);
    expect(await schemaDiff(backend.orm)).toBe('');
  });
});
