import type { InferKyselyDB } from '@mikro-orm/sql';
import type { ColumnType, Selectable } from 'kysely';
import type { entities } from './index';

/**
 * Row types, inferred from the entity schemas so that each table is declared once.
 *
 * `Schema` is MikroORM's inference (`InferKyselyDB`): SQL table and column names, the property
 * types, `Generated` where the database fills the column (serial ids, defaults), `| null` where
 * nullable, `organization_id` for a many-to-one `organization`.
 */
type Schema = InferKyselyDB<(typeof entities)[number]>;

/** A table's SQL name. */
export type TableName = keyof Schema;

/**
 * A row as the adapters hold it in memory: times as Dates, ids as numbers (the domain's id type;
 * an int8 serial stays far below 2^53).
 */
export type Row<T extends TableName> = { [C in keyof Selectable<Schema[T]>]: AsNumber<Selectable<Schema[T]>[C]> };

type AsNumber<V> = V extends bigint ? number : V;

/**
 * The tables as the PostgreSQL driver sees them, which is what `database.db` (Kysely) is typed
 * with: MikroORM's pool keeps timestamps as text (its type parsers) and `pg` hands int8 over as
 * text, so those columns read as strings (map them with `new Date` / `Number`); they are written and
 * compared as Dates and numbers.
 */
export type Tables = { [T in TableName]: { [C in keyof Schema[T]]: OnWire<Schema[T][C]> } };

type OnWire<V> =
  V extends ColumnType<infer S, infer I, infer U> ? ColumnType<Read<S>, Write<I>, Write<U>> : ColumnType<Read<V>, Write<V>, Write<V>>;
// A time is read as text and compared with Dates; an int8 is read as text and compared with numbers.
type Read<V> = V extends Date ? string | Date : V extends bigint ? string | number : V;
type Write<V> = V extends bigint ? number : V;
