/**
 * EXPERIMENT, bench-only: the two reads on W1's path (session lookup, project list) as constant
 * SQL instead of knex query-builder chains, patched onto the production adapters' prototypes so
 * the app can be measured with the change before anyone makes it. Not used by the app.
 *
 * - `raw`: `database.db.raw(sql, bindings)`: no builder, no compiler; still knex's runner and pool.
 * - `pg`:  a pooled pg connection straight from knex's pool, `$n` parameters: no builder, no runner,
 *          no query events. Inside a transaction it falls back to `raw` (the transaction's connection).
 */
import type { Knex } from '@mikro-orm/postgresql';
import type { Database } from '../../../adapters/postgres/database';
import { PostgresProjectRepository } from '../../../adapters/postgres/postgres-project-repository';
import { PostgresSessionStore } from '../../../adapters/postgres/postgres-session-store';
import type { SessionPrincipal } from '../../../core/accounts/session-store.port';
import type { Project } from '../../../core/projects/project';
import type { ProjectListOptions } from '../../../core/projects/project-repository.port';

export type LeanMode = 'raw' | 'pg';

interface PgConnection {
  query(sql: string, params: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}
interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

const PRINCIPAL = `select s.id as session_id, s.user_id, u.organization_id, u.role, s.expires_at, u.status as user_status, o.status as organization_status
  from session as s inner join app_user as u on u.id = s.user_id inner join organization as o on o.id = u.organization_id
 where s.token_hash = ? limit 1`;
const LIST = 'select id, organization_id, user_id, name, description, created_at, updated_at from project where organization_id = ?';

/** `?` placeholders → `$1, $2, …` (the statements here hold no other `?`). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

function runner(mode: LeanMode) {
  return async (database: Database, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> => {
    const inTransaction = database.db !== database.orm.em.getKnex();
    if (mode === 'raw' || inTransaction) return ((await database.db.raw(sql, params as Knex.RawBinding[])) as { rows: Array<Record<string, unknown>> }).rows;
    const client = database.orm.em.getKnex().client as unknown as KnexClient;
    const connection = await client.acquireConnection();
    try {
      return (await connection.query(numbered(sql), params)).rows;
    } finally {
      await client.releaseConnection(connection);
    }
  };
}

export function applyLeanReads(mode: LeanMode): void {
  const query = runner(mode);
  const databaseOf = (adapter: unknown) => (adapter as { database: Database }).database;

  PostgresSessionStore.prototype.findByTokenHash = async function (tokenHash: string): Promise<SessionPrincipal | null> {
    const [row] = await query(databaseOf(this), PRINCIPAL, [tokenHash]);
    if (!row) return null;
    return {
      sessionId: Number(row.session_id),
      userId: row.user_id as number,
      organizationId: row.organization_id as number,
      role: row.role as SessionPrincipal['role'],
      expiresAt: new Date(row.expires_at as string),
      userStatus: row.user_status as SessionPrincipal['userStatus'],
      organizationStatus: row.organization_status as SessionPrincipal['organizationStatus'],
    };
  };

  PostgresProjectRepository.prototype.list = async function (organizationId: number, options: ProjectListOptions = {}): Promise<Project[]> {
    let sql = LIST;
    const params: unknown[] = [organizationId];
    if (options.after) {
      sql += ' and (created_at, id) < (?, ?)';
      params.push(options.after.createdAt, options.after.id);
    }
    sql += ' order by created_at desc, id desc';
    if (options.limit !== undefined) {
      sql += ' limit ?';
      params.push(options.limit);
    }
    const rows = await query(databaseOf(this), sql, params);
    return rows.map((row) => ({
      id: row.id as number,
      organizationId: row.organization_id as number,
      userId: row.user_id as number,
      name: row.name as string,
      description: row.description as string | null,
      createdAt: new Date(row.created_at as string),
      updatedAt: new Date(row.updated_at as string),
    }));
  };
}
