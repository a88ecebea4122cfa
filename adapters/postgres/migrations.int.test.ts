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
    em.create(OrganizationSchema, { name, status: 'active', createdAt: at, updatedAt: at });
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
    const previous = migrations.at(-2)!.name;
    await migrator.down({ to: previous });
    // Written the way the previous release wrote it: timestamps from the column defaults.
    await backend.orm.em.execute(`insert into organization (name) values ('Before the upgrade')`);
    const upgraded = await migrator.up();
    expect(upgraded.map((m) => m.name)).toEqual([migrations.at(-1)!.name]);
    const rows = await backend.orm.em.execute<Array<{ name: string; created_at: unknown }>>('select name, created_at from organization');
    expect(rows).toEqual([{ name: 'Before the upgrade', created_at: expect.anything() }]);
    await backend.orm.em.execute('delete from organization');
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
