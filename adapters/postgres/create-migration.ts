import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from './embedded-postgres';
import { MIGRATIONS_PATH, migrate, openOrm } from './orm';

/**
 * Generates the next migration with MikroORM's migrator: on a throwaway embedded database it
 * applies every existing migration, diffs that schema against the entity schemas (the single
 * source of every table), writes the difference as `Migration<timestamp>_<name>.ts`, and lists
 * it in `migrations/index.ts`. Returns the file name, or undefined when nothing differs.
 */
export async function createMigration(name: string): Promise<string | undefined> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tk-migration-'));
  try {
    const embedded = await startEmbeddedPostgres(dataDir);
    try {
      const orm = await openOrm({ embedded: embedded.connection });
      try {
        await migrate(orm);
        const result = await orm.migrator.create(MIGRATIONS_PATH, false, false, name);
        if (!result.fileName) return undefined;
        await writeMigrationIndex();
        return result.fileName;
      } finally {
        await orm.close(true);
      }
    } finally {
      await embedded.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Rewrites `migrations/index.ts` from the migration files, in file-name (timestamp) order. */
async function writeMigrationIndex(): Promise<void> {
  const files = (await readdir(MIGRATIONS_PATH)).filter((file) => /^Migration\d+.*\.ts$/.test(file)).sort();
  const classes = await Promise.all(
    files.map(async (file) => {
      const source = await readFile(join(MIGRATIONS_PATH, file), 'utf8');
      const name = /export class (\w+) extends Migration/.exec(source)?.[1];
      if (!name) throw new Error(`${file} declares no migration class`);
      return { file: file.replace(/\.ts$/, ''), name };
    }),
  );
  const lines = [
    "import type { MigrationObject } from '@mikro-orm/core';",
    ...classes.map(({ file, name }) => `import { ${name} } from './${file}';`),
    '',
    '/** Every migration, in order. Written by `npm run migration:create`; listed so bundlers and tsx never depend on a glob. */',
    'export const migrations: MigrationObject[] = [',
    ...classes.map(({ name }) => `  { name: '${name}', class: ${name} },`),
    '];',
    '',
  ];
  await writeFile(join(MIGRATIONS_PATH, 'index.ts'), lines.join('\n'));
}
