import * as v from 'valibot';
import { AUDIT_ACTIONS } from '../../../core/audit/audit-event';
import { integer, integerParam } from './integer-param.schema';
import { pageQuery } from '../paging';

/** Request and response shapes of the audit log routes. */

const ISO_WITH_OFFSET = 'Must be an ISO-8601 timestamp with an offset, e.g. 2026-11-21T10:00:00.000Z';

/** A query timestamp: ISO-8601 with an offset (`Z` or `±hh:mm`), read as a Date. */
const timestampParam = (description: string) =>
  v.pipe(
    v.string(ISO_WITH_OFFSET),
    v.metadata({ type: 'string', format: 'date-time', description }),
    v.isoTimestamp(ISO_WITH_OFFSET),
    v.check((text) => !Number.isNaN(Date.parse(text)), ISO_WITH_OFFSET),
    v.transform((text) => new Date(text)),
  );

export const AuditActionName = v.pipe(v.picklist(AUDIT_ACTIONS, `Must be one of: ${AUDIT_ACTIONS.join(', ')}`), v.description('What happened, dotted lower case'));

const filters = {
  action: v.optional(AuditActionName),
  actor_type: v.optional(v.pipe(v.picklist(['user', 'api_key', 'system'], 'Must be one of: user, api_key, system'), v.description('Only the events of this kind of actor'))),
  actor_id: v.optional(integerParam(1, Number.MAX_SAFE_INTEGER, "Only the events of this actor (a user's or an API key's id: add `actor_type` to tell them apart)")),
  since: v.optional(timestampParam('Only events at or after this time')),
  until: v.optional(timestampParam('Only events before this time')),
};

export const ListAuditEventsQuery = v.object({ ...pageQuery('events').entries, ...filters });

export const ExportAuditEventsQuery = v.object({
  since: v.optional(timestampParam('Events at or after this time; default: 366 days before `until`')),
  until: v.optional(timestampParam('Events before this time; default: now. At most 366 days after `since`')),
});

export const AuditEventResponse = v.object({
  id: integer,
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  action: AuditActionName,
  actor: v.object({
    type: v.picklist(['user', 'api_key', 'system']),
    /** Null for the system. */
    id: v.nullable(integer),
    email: v.optional(v.string()),
    name: v.optional(v.string()),
  }),
  target: v.nullable(v.object({ type: v.string(), id: v.string() })),
  ip: v.nullable(v.string()),
  user_agent: v.nullable(v.string()),
  details: v.record(v.string(), v.unknown()),
});
