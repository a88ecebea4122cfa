import type { RoleName } from '../../core/access/role';
import type { NewSession, SessionPrincipal, SessionStore, SessionSummary } from '../../core/accounts/session-store.port';
import type { AccountStatus } from '../../core/accounts/user';
import type { ListWindow } from '../../core/shared/list-page';
import type { Selectable } from 'kysely';
import type { Database, PreparedSql } from './database';
import type { Tables } from './schema/tables';
import { windowed } from './list-window';
import { epochMillis } from './timestamp';

/** FIND_PRINCIPAL's array, in order, as JSON.parse gives it back. */
type PrincipalTuple = [
  sessionId: number,
  userId: number,
  organizationId: number,
  role: RoleName,
  expiresAtMs: number,
  lastSeenAtMs: number,
  userStatus: AccountStatus,
  organizationStatus: AccountStatus,
  requireMfa: boolean,
  hasMfa: boolean,
  credentialsVersion: number,
  userCredentialsVersion: number,
  viaPasskey: boolean,
];

type SummaryRow = Pick<Selectable<Tables['session']>, 'id' | 'created_at' | 'last_seen_at' | 'expires_at' | 'user_agent' | 'ip'>;

// The MFA flag is an EXISTS on user_totp's primary key: one index probe inside the same
// round trip, so requests of organizations that require MFA cost nothing extra to guard.
// Prepared: it runs on every authenticated request, and planning the join cost PostgreSQL
// about four times what running it does. Its times come as epoch milliseconds (epochMillis):
// no timestamp text to read per request. The row comes back as one JSON array in one text
// column, read with one JSON.parse: pg decodes a field description and picks a type parser for
// every column of every result (13 here), which cost more than parsing the same values as JSON.
const FIND_PRINCIPAL: PreparedSql = {
  name: 'session_find_principal_json',
  text: `select json_build_array(s.id, s.user_id, u.organization_id, u.role,
          ${epochMillis('s.expires_at')}, ${epochMillis('s.last_seen_at')},
          u.status, o.status, o.require_mfa,
          exists (select 1 from user_totp t where t.user_id = u.id and t.confirmed_at is not null),
          s.credentials_version, u.credentials_version, s.via_passkey)::text as principal
     from session s
     join app_user u on u.id = s.user_id
     join organization o on o.id = u.organization_id
    where s.token_hash = $1
    limit 1`,
};

// Conditional, so that instances seeing the same session at once write it once.
const RECORD_ACTIVITY = `update session set last_seen_at = $2 where id = $1 and last_seen_at < $3`;

// A bounded batch that walks the expires_at index, so one call never holds many row locks.
// `id = any(array(…))` lets the planner delete through the primary key; write it so, never
// `id in (…)`, which makes it scan the whole table per batch (docs/benchmarks.md). SKIP LOCKED
// lets two concurrent prunes (a /cron call and the schedule) take disjoint batches.
const PRUNE_EXPIRED = `delete from session where id = any(array(
   select id from session where expires_at < $1 order by expires_at limit $2 for update skip locked))`;

const toSummary = (row: SummaryRow): SessionSummary => ({
  id: Number(row.id),
  createdAt: new Date(row.created_at),
  lastSeenAt: new Date(row.last_seen_at),
  expiresAt: new Date(row.expires_at),
  userAgent: row.user_agent,
  ip: row.ip,
});

// The user row is read FOR SHARE in the same statement as the insert: a password change or a
// removal in progress makes it wait, and the re-checked condition then finds the user gone or
// at a new version, so nothing is inserted (and no foreign-key violation can abort the caller).
const CREATE_IF_CURRENT = `with current_user_row as (
     select id from app_user where id = $1 and credentials_version = $2 for share)
   insert into session (user_id, token_hash, user_agent, ip, created_at, last_seen_at, expires_at, credentials_version, via_passkey)
   select id, $3, $4, $5, $6, $6, $7, $2, $8 from current_user_row
   returning id`;

export class PostgresSessionStore implements SessionStore {
  constructor(private readonly database: Database) {}

  async create(input: NewSession): Promise<{ id: number } | null> {
    const [row] = await this.database.select<{ id: string | number }>(CREATE_IF_CURRENT, [
      input.userId,
      input.credentialsVersion,
      input.tokenHash,
      input.userAgent ?? null,
      input.ip ?? null,
      input.createdAt,
      input.expiresAt,
      input.viaPasskey ?? false,
    ]);
    return row ? { id: Number(row.id) } : null;
  }

  async findByTokenHash(tokenHash: string): Promise<SessionPrincipal | null> {
    // Runs on every authenticated request: one indexed lookup, one round trip, fixed SQL.
    const [found] = await this.database.selectTuples<[principal: string]>(FIND_PRINCIPAL, [tokenHash]);
    if (!found) return null;
    const row = JSON.parse(found[0]) as PrincipalTuple;
    return {
      sessionId: row[0],
      userId: row[1],
      organizationId: row[2],
      role: row[3],
      expiresAt: new Date(row[4]),
      lastSeenAt: new Date(row[5]),
      userStatus: row[6],
      organizationStatus: row[7],
      organizationRequiresMfa: row[8],
      userHasMfa: row[9],
      credentialsVersion: row[10],
      userCredentialsVersion: row[11],
      viaPasskey: row[12],
    };
  }

  async listLiveForUser(userId: number, now: Date, window?: ListWindow): Promise<SessionSummary[]> {
    const query = this.database.db
      .selectFrom('session')
      .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');
    const rows = (await windowed(query, window, 'newest-first').execute()) as SummaryRow[];
    return rows.map(toSummary);
  }

  async recordActivity(sessionId: number, at: Date, staleBefore: Date): Promise<boolean> {
    return (await this.database.run(RECORD_ACTIVITY, [sessionId, at, staleBefore])) > 0;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.database.db.deleteFrom('session').where('id', '=', sessionId).execute();
  }

  async revokeOwned(userId: number, sessionId: number): Promise<boolean> {
    const result = await this.database.db.deleteFrom('session').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async renewCredentials(sessionId: number, credentialsVersion: number): Promise<void> {
    await this.database.db.updateTable('session').set({ credentials_version: credentialsVersion }).where('id', '=', sessionId).execute();
  }

  async revokeAllForUser(userId: number, exceptSessionId?: number): Promise<number> {
    let query = this.database.db.deleteFrom('session').where('user_id', '=', userId);
    if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
    return Number((await query.executeTakeFirst()).numDeletedRows);
  }

  async pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.database.run(PRUNE_EXPIRED, [cutoff, Math.max(0, batchSize)]);
  }
}
