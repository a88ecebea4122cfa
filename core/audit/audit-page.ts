import { DomainError } from '../shared/domain-error';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { AuditEvent } from './audit-event';
import type { AuditEventRepository, AuditFilter } from './audit-event-repository.port';

/** A page of one organization's log, newest first, under `filter`; the cursor is the shared list cursor, naming the last event's time and id. */
export async function readAuditPage(events: AuditEventRepository, organizationId: number, filter: AuditFilter, request: PageRequest): Promise<Page<AuditEvent>> {
  assertOrderedRange(filter);
  const page = await readPage(request, async (window) => {
    const rows = await events.listNewestFirst(organizationId, filter, { limit: window.limit ?? request.limit + 1, ...(window.after ? { beforeId: window.after.id } : {}) });
    return rows.map((event) => ({ createdAt: event.occurredAt, id: event.id, event }));
  });
  return { items: page.items.map((item) => item.event), nextCursor: page.nextCursor };
}

/** `since` must come before `until` when both are given: an empty range is a mistake, not a question. */
export function assertOrderedRange(range: { since?: Date; until?: Date }): void {
  if (range.since && range.until && range.since.getTime() >= range.until.getTime()) {
    throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { until: 'Must be later than since' });
  }
}
