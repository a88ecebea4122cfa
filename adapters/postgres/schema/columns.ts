import { UnderscoreNamingStrategy, type EntitySchema } from '@mikro-orm/core';
import { entities } from './index';
import type { TableName, Tables } from './tables';

/** A column of `T`, as `tsc` knows it from the entity schema. */
export type Column<T extends TableName> = keyof Tables[T] & string;

// The naming MikroORM applies to these schemas (its default for SQL drivers, which orm.ts keeps):
// a property `createdAt` is the column `created_at`, a many-to-one `organization` is `organization_id`.
const naming = new UnderscoreNamingStrategy();

const columnName = (property: string, kind: unknown): string => (kind === 'm:1' ? naming.joinKeyColumnName(property) : naming.propertyToColumnName(property));

const COLUMNS = new Map<string, readonly string[]>(
  (entities as readonly EntitySchema[]).map((schema) => [
    schema.meta.tableName,
    Object.freeze(Object.entries(schema.meta.properties as Record<string, { kind?: unknown }>).map(([property, options]) => columnName(property, options.kind))),
  ]),
);

/**
 * Every column of `table`, in the order its entity schema declares them: the one source for a
 * statement that names all of a table's columns (a prepared statement must name them; `select *`
 * fails once a migration changes the table under a running app).
 */
export function columnsOf<T extends TableName>(table: T): readonly Column<T>[] {
  const columns = COLUMNS.get(table);
  if (!columns) throw new Error(`No entity schema declares the table ${table}`);
  return columns as readonly Column<T>[];
}

/** Every table the entity schemas declare, with its columns: what a test checks the adapters' SQL against. */
export function declaredColumns(): ReadonlyMap<string, readonly string[]> {
  return COLUMNS;
}
