import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, createTestPglite, requirePostgres } from '../../test/support/postgres';
import { migrations } from './migrations';
import { SystemSettingSchema } from './schema/system-setting.entity';

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

const schemaDiff = async (orm: MikroORM) => (await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false })).trim();

async function publicTables(orm: MikroORM): Promise<string[]> {
  const rows = await orm.em
    .getKnex()
    .select('table_name')
    .from('information_schema.tables')
    .where({ table_schema: 'public', table_type: 'BASE TABLE' })
    .orderBy('table_name');
  return rows.map((row: { table_name: string }) => row.table_name);
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
    const executed = await backend.orm.getMigrator().getExecutedMigrations();
    expect(executed.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await backend.orm.getMigrator().getPendingMigrations()).toEqual([]);
  });

  test.skipIf(!enabled)('entities and migrations agree: the schema diff is empty', async () => {
    expect(await schemaDiff(backend.orm)).toBe('');
  });

  test.skipIf(!enabled)("values containing ';' round-trip through the ORM (pitfall A1)", async () => {
    const value = { name: 'Smith; John', sql: "x'; drop table system_setting; --" };
    const em = backend.orm.em.fork();
    em.create(SystemSettingSchema, { key: 'semi;colon', value, updatedAt: new Date('2026-01-02T03:04:05.000Z') });
    await em.flush();

    const read = backend.orm.em.fork();
    const found = await read.findOne(SystemSettingSchema, { key: 'semi;colon' });
    expect(found).toMatchObject({ key: 'semi;colon', value, updatedAt: new Date('2026-01-02T03:04:05.000Z') });
    expect(await read.count(SystemSettingSchema, { key: 'semi;colon' })).toBe(1);
    expect(await read.nativeUpdate(SystemSettingSchema, { key: 'semi;colon' }, { value: { name: 'Doe; Jane' } })).toBe(1);
    const raw = await backend.orm.em.getKnex().raw<{ rows: Array<{ value: unknown }> }>('select value from system_setting where key = ?', ['semi;colon']);
    expect(raw.rows).toEqual([{ value: { name: 'Doe; Jane' } }]);
  });

  test.skipIf(!enabled)('down() to the start removes every table; up() again restores an identical schema', async () => {
    const tablesAfterUp = await publicTables(backend.orm);
    const migrator = backend.orm.getMigrator();
    const reverted = await migrator.down({ to: 0 });
    expect(reverted.map((m) => m.name)).toEqual(migrations.map((m) => m.name).reverse());
    expect(await publicTables(backend.orm)).toEqual(['mikro_orm_migrations']);

    const reapplied = await migrator.up();
    expect(reapplied.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await publicTables(backend.orm)).toEqual(tablesAfterUp);
    expect(await schemaDiff(backend.orm)).toBe('');
  });
});
