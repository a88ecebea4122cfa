import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { ListWindow } from '../../core/shared/list-page';
import type { Database, PreparedSql } from './database';
import type { TableName, Tables } from './schema/tables';

/**
 * A list query cut to a `ListWindow`: rows strictly after the position in the list's order, at
 * most `limit` of them. The query must select from one table with `created_at` and `id` and be
 * ordered by them, ascending (the default) or newest first (`created_at desc, id desc`, where
 * "after a position" means older than it); the row comparison then walks an index on them.
 */
export function windowed<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  window: ListWindow = {},
  order: 'ascending' | 'newest-first' = 'ascending',
): SelectQueryBuilder<DB, TB, O> {
  let windowedQuery = query;
  if (window.after) {
    const { createdAt, id } = window.after;
    // As int8 whatever the column: a cursor's id may pass int4 (it goes to 2^53 - 1), and on an
    // int4 column it must find the rows below it, not fail the query as out of range.
    windowedQuery = windowedQuery.where(
      order === 'ascending' ? sql<boolean>`(created_at, id) > (${createdAt}, ${id}::bigint)` : sql<boolean>`(created_at, id) < (${createdAt}, ${id}::bigint)`,
    );
  }
  if (window.limit !== undefined) windowedQuery = windowedQuery.limit(window.limit);
  return windowedQuery;
}

type Column<T extends TableName> = keyof Tables[T] & string;

/** A list that runs on every page view: fixed SQL, newest first, of the rows one owner holds. */
export interface NewestFirstList<Row, Owner extends readonly number[]> {
  /**
   * At most `window.limit` rows (all when omitted) whose owner columns equal `owner`, strictly
   * after `window.after` in the list order, i.e. older: `created_at` descending, then `id` descending.
   */
  select(database: Database, owner: Owner, window?: ListWindow): Promise<Row[]>;
  /** `select`, each row an array of the columns' values in the order they were named (`Database.selectTuples`). */
  selectTuples<Tuple extends readonly unknown[]>(database: Database, owner: Owner, window?: ListWindow): Promise<Tuple[]>;
}

/**
 * The newest-first keyset list of `table`, filtered on `ownerColumns` (`$1`, `$2`, … in that
 * order), reading `columns`. Both statements, the first page and a page after a position, are
 * written here once per table when the module loads and prepared by name on each connection
 * (PostgreSQL plans them once, not on every request), run through `database.select`. They name
 * their columns: a prepared `select *` fails once a migration changes the table under a running
 * app. The row comparison `(created_at, id) < (…)` walks an index on `(<owner columns>,
 * created_at desc, id desc)` without a sort; the cursor's id is an int8 there, as in `windowed`.
 * `limit null` is no limit. `expressions` replaces a column by an expression, read under the
 * column's name (`epochMillis`: a timestamp as a number).
 */
export function newestFirstList<T extends TableName, const C extends readonly [Column<T>, ...Column<T>[]]>(
  table: T,
  ownerColumns: C,
  columns: readonly Column<T>[],
  expressions: Partial<Record<Column<T>, (column: string) => string>> = {},
): NewestFirstList<Selectable<Tables[T]>, { readonly [K in keyof C]: number }> {
  const owner = ownerColumns.map((column, index) => `${column} = $${index + 1}`).join(' and ');
  const n = ownerColumns.length;
  const read = columns.map((column) => (expressions[column] ? `${expressions[column](column)} as ${column}` : column)).join(', ');
  // Qualified: a bare name in ORDER BY means a result column first, and `read` may put an
  // expression under the column's name (sorting by it would forgo the index).
  const order = `${table}.created_at desc, ${table}.id desc`;
  const first: PreparedSql = {
    name: `${table}_list_first`,
    text: `select ${read} from ${table} where ${owner}
  order by ${order} limit $${n + 1}`,
  };
  const after: PreparedSql = {
    name: `${table}_list_after`,
    text: `select ${read} from ${table} where ${owner} and (created_at, id) < ($${n + 1}, $${n + 2}::bigint)
  order by ${order} limit $${n + 3}`,
  };
  const statement = (ownerValues: readonly number[], window: ListWindow): [PreparedSql, unknown[]] => {
    const limit = window.limit ?? null;
    return window.after ? [after, [...ownerValues, window.after.createdAt, window.after.id, limit]] : [first, [...ownerValues, limit]];
  };
  return {
    select(database, ownerValues, window = {}) {
      const [sql, params] = statement(ownerValues, window);
      return database.select(sql, params);
    },
    selectTuples<Tuple extends readonly unknown[]>(database: Database, ownerValues: readonly number[], window: ListWindow = {}) {
      const [sql, params] = statement(ownerValues, window);
      return database.selectTuples<Tuple>(sql, params);
    },
  };
}
