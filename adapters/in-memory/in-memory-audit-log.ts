import type { AuditEvent, NewAuditEvent } from '../../core/audit/audit-event';
import type { AuditLog } from '../../core/audit/audit-log.port';
import type { AuditEventRepository, AuditFilter } from '../../core/audit/audit-event-repository.port';
import { deleteWhere, type InMemoryStore } from './in-memory-store';
import type { Row } from '../postgres/schema/tables';

export type AuditEventRow = Row<'audit_event'>;

const displayName = (firstName: string | null, lastName: string | null): string | null =>
  [firstName, lastName].filter((part) => part !== null && part !== '').join(' ') || null;

const toEvent = (row: AuditEventRow): AuditEvent => ({
  id: row.id,
  organizationId: row.organization_id,
  occurredAt: new Date(row.occurred_at),
  action: row.action,
  actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email, name: row.actor_name },
  target: row.target_type !== null && row.target_id !== null ? { type: row.target_type, id: row.target_id } : null,
  origin: { ip: row.ip, userAgent: row.user_agent },
  details: structuredClone(row.details),
});

const inFilter = (row: AuditEventRow, filter: AuditFilter): boolean =>
  (filter.action === undefined || row.action === filter.action) &&
  (filter.actorType === undefined || row.actor_type === filter.actorType) &&
  (filter.actorId === undefined || row.actor_id === filter.actorId) &&
  (filter.since === undefined || row.occurred_at.getTime() >= filter.since.getTime()) &&
  (filter.until === undefined || row.occurred_at.getTime() < filter.until.getTime());

/**
 * The audit log as a table of the shared InMemoryStore: a rolled-back transaction takes its
 * events with it, and deleting an organization deletes its events, as the SQL foreign key does.
 * `failNextRecord` lets transaction tests make the event's insert fail.
 */
export class InMemoryAuditLog implements AuditLog, AuditEventRepository {
  private readonly rows;
  private failure: Error | null = null;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<AuditEventRow>('audit_event');
    store.onDeleteOrganization((organizationId) => deleteWhere(this.rows, (row) => row.organization_id === organizationId));
  }

  record(event: NewAuditEvent): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      if (this.failure) {
        const failure = this.failure;
        this.failure = null;
        throw failure;
      }
      // The foreign key of the SQL table.
      if (!this.store.organizations.has(event.organizationId)) throw new Error(`No organization ${event.organizationId} to record an event in`);
      const named = event.actor.email !== undefined || event.actor.name !== undefined;
      const user = event.actor.type === 'user' && event.actor.id !== null ? this.store.users.get(event.actor.id) : undefined;
      const row: AuditEventRow = {
        id: this.store.nextId('audit_event'),
        organization_id: event.organizationId,
        occurred_at: this.store.now(),
        action: event.action,
        actor_type: event.actor.type,
        actor_id: event.actor.id,
        // As the SQL adapter: named by the recorder (either field), else read from the user's row.
        actor_email: named ? (event.actor.email ?? null) : (user?.email ?? null),
        actor_name: named ? (event.actor.name ?? null) : user ? displayName(user.first_name, user.last_name) : null,
        target_type: event.target?.type ?? null,
        target_id: event.target?.id ?? null,
        ip: event.origin.ip,
        user_agent: event.origin.userAgent,
        // Stored as JSON is: what does not survive a JSON round trip is not kept.
        details: JSON.parse(JSON.stringify(event.details)) as Record<string, unknown>,
      };
      this.rows.set(row.id, row);
    });
  }

  listNewestFirst(organizationId: number, filter: AuditFilter, window: { beforeId?: number; limit: number }): Promise<AuditEvent[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()]
        .filter((row) => row.organization_id === organizationId && (window.beforeId === undefined || row.id < window.beforeId) && inFilter(row, filter))
        .sort((a, b) => b.id - a.id)
        .slice(0, window.limit)
        .map(toEvent),
    );
  }

  listOldestFirst(organizationId: number, range: { since: Date; until: Date }, window: { afterId?: number; limit: number }): Promise<AuditEvent[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()]
        .filter((row) => row.organization_id === organizationId && (window.afterId === undefined || row.id > window.afterId) && inFilter(row, range))
        .sort((a, b) => a.id - b.id)
        .slice(0, window.limit)
        .map(toEvent),
    );
  }

  pruneOccurredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const old = [...this.rows.values()]
        .filter((row) => row.occurred_at.getTime() < cutoff.getTime())
        .sort((a, b) => a.occurred_at.getTime() - b.occurred_at.getTime() || a.id - b.id)
        .slice(0, Math.max(0, batchSize));
      for (const row of old) this.rows.delete(row.id);
      return old.length;
    });
  }

  /** Every event recorded (tests): oldest first, of one organization when given. */
  async recorded(organizationId?: number): Promise<AuditEvent[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()].filter((row) => organizationId === undefined || row.organization_id === organizationId).sort((a, b) => a.id - b.id).map(toEvent),
    );
  }

  /** Makes the next `record` throw `error` (tests: an event whose insert fails must take its change down with it). */
  failNextRecord(error: Error = new Error('audit insert failed')): void {
    this.failure = error;
  }
}
