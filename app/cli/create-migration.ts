import { createMigration } from '../../adapters/postgres/create-migration';

/**
 * `npm run migration:create -- <name>`: writes the migration that brings the schema built by the
 * existing migrations up to the entity schemas. Needs no database: it uses a throwaway embedded one.
 */
const name = process.argv[2];
if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
  process.stderr.write('Usage: npm run migration:create -- <Name> (letters and digits, e.g. AddInvoices)\n');
  process.exit(2);
}
const file = await createMigration(name);
process.stdout.write(file ? `created adapters/postgres/migrations/${file}\n` : 'no changes: the migrations already match the entity schemas\n');
