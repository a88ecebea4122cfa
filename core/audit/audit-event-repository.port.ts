import type { AuditAction, AuditActorType, AuditEvent } from './audit-event';

/** Which events a listing keeps: all of them when a field is absent. `since` inclusive, `until` exclusive. */
export interface AuditFilter {
  action?: AuditAction;
  /** A user's and an API key's ids may coincide: the type tells them apart. */
  actorType?: AuditActorType;
  actorId?: number;
  since?: Date;
  until?: Date;
}

/**
 * Reads organizations' audit logs, and deletes what retention has let go. Events are ordered by
 * `id`, the order they were recorded in; both reads are keyset windows on it, so a page or a
 * batch costs the same however deep into the log it starts. Nothing here changes an event.
 */
export interface AuditEventRepository {
  /** At most `limit` events of the organization that `filter` keeps, newest first, with ids below `beforeId` when given. */
  listNewestFirst(organizationId: number, filter: AuditFilter, window: { beforeId?: number; limit: number }): Promise<AuditEvent[]>;
  /**
   * At most `limit` events of the organization with `since <= occurredAt < until`, oldest first,
   * with ids above `afterId` when given: one batch of an export.
   */
  listOldestFirst(organizationId: number, range: { since: Date; until: Date }, window: { afterId?: number; limit: number }): Promise<AuditEvent[]>;
  /** Deletes at most `batchSize` events (of any organization) that occurred before `cutoff`, oldest first; returns how many. */
  pruneOccurredBefore(cutoff: Date, batchSize: number): Promise<number>;
}
