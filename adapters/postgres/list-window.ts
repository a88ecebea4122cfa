import { sql, type SelectQueryBuilder } from 'kysely';
import type { ListWindow } from '../../core/shared/list-page';

/**
 * A list query cut to a `ListWindow`: rows strictly after the position in (created_at, id)
 * order, at most `limit` of them. The query must select from one table with those two columns
 * and be ordered by them ascending; the row comparison then walks an index on them.
 */
export function windowed<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, window: ListWindow = {}): SelectQueryBuilder<DB, TB, O> {
  let windowedQuery = query;
  if (window.after) windowedQuery = windowedQuery.where(sql<boolean>`(created_at, id) > (${window.after.createdAt}, ${window.after.id})`);
  if (window.limit !== undefined) windowedQuery = windowedQuery.limit(window.limit);
  return windowedQuery;
}
