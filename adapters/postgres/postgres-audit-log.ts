import type { Selectable } from 'kysely';
import type { AuditEvent, NewAuditEvent } from '../../core/audit/audit-event';
import type { AuditLog } from '../../core/audit/audit-log.port';
import type { AuditEventRepository, AuditFilter } from '../../core/audit/audit-event-repository.port';
import type { Database } from './database';
import type { Tables } from './schema/tables';
import { parseTimestamp } from './timestamp';

type EventRow = Selectable<Tables['audit_event']>;

const COLUMNS = [
  'id',
  'organization_id',
  'occurred_at',
  'action',
  'actor_type',
  'actor_id',
  'actor_email',
  'actor_name',
  'target_type',
  'target_id',
  'ip',
  'user_agent',
  'details',
] as const;

// One statement, one round trip: the actor's email and name are read from their row (a primary
// key probe) in the insert itself, unless the recorder named them. It runs on the connection of
// the open transaction, so the event commits or rolls back with the change it records.
const RECORD = `insert into audit_event (organization_id, occurred_at, action, actor_type, actor_id, actor_email, actor_name,
     target_type, target_id, ip, user_agent, details)
   select $1::int, $2::timestamptz, $3::varchar, $4::varchar, $5::int8,
          case when $6::boolean then $7::varchar else u.email end,
          case when $6::boolean then $8::varchar else nullif(concat_ws(' ', u.first_name, u.last_name), '') end,
          $9::varchar, $10::varchar, $11::varchar, $12::varchar, $13::jsonb
     from (select 1) as one
     left join app_user u on $4::varchar = 'user' and u.id = $5::int8`;

// A bounded batch that walks the occurred_at index, as the session prune does (see there for
// why `id = any(array(…))` and SKIP LOCKED).
const PRUNE = `delete from audit_event where id = any(array(
   select id from audit_event where occurred_at < $1 order by occurred_at limit $2 for update skip locked))`;

const toEvent = (row: EventRow): AuditEvent => ({
  id: Number(row.id),
  organizationId: row.organization_id,
  occurredAt: parseTimestamp(row.occurred_at),
  action: row.action,
  actor: { type: row.actor_type, id: row.actor_id === null ? null : Number(row.actor_id), email: row.actor_email, name: row.actor_name },
  target: row.target_type !== null && row.target_id !== null ? { type: row.target_type, id: row.target_id } : null,
  origin: { ip: row.ip, userAgent: row.user_agent },
  details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
});

/** `audit_event` over Kysely: appended inside the caller's UnitOfWork, read by keyset windows on `id`. */
export class PostgresAuditLog implements AuditLog, AuditEventRepository {
  constructor(private readonly database: Database) {}

  async record(event: NewAuditEvent): Promise<void> {
    const named = event.actor.email !== undefined || event.actor.name !== undefined;
    await this.database.run(RECORD, [
      event.organizationId,
      this.database.now(),
      event.action,
      event.actor.type,
      event.actor.id,
      named,
      event.actor.email ?? null,
      event.actor.name ?? null,
      event.target?.type ?? null,
      event.target?.id ?? null,
      event.origin.ip,
      event.origin.userAgent,
      JSON.stringify(event.details),
    ]);
  }

  async listNewestFirst(organizationId: number, filter: AuditFilter, window: { beforeId?: number; limit: number }): Promise<AuditEvent[]> {
    // Walks the (organization_id, id desc) index from the cursor; the filters are checked on the rows it meets.
    let query = this.database.db.selectFrom('audit_event').select(COLUMNS).where('organization_id', '=', organizationId);
    if (window.beforeId !== undefined) query = query.where('id', '<', window.beforeId);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.actorType !== undefined) query = query.where('actor_type', '=', filter.actorType);
    if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
    if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
    const rows = await query.orderBy('id', 'desc').limit(window.limit).execute();
    return rows.map(toEvent);
  }

  async listOldestFirst(organizationId: number, range: { since: Date; until: Date }, window: { afterId?: number; limit: number }): Promise<AuditEvent[]> {
    let query = this.database.db
      .selectFrom('audit_event')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('occurred_at', '>=', range.since)
      .where('occurred_at', '<', range.until);
    if (window.afterId !== undefined) query = query.where('id', '>', window.afterId);
    const rows = await query.orderBy('id', 'asc').limit(window.limit).execute();
    return rows.map(toEvent);
  }

  async pruneOccurredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.database.run(PRUNE, [cutoff, Math.max(0, batchSize)]);
  }
}
