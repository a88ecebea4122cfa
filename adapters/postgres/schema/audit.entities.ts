import { defineEntity, p } from '@mikro-orm/core';
import type { AuditAction, AuditActorType } from '../../../core/audit/audit-event';
import { OrganizationSchema } from './accounts.entities';

/**
 * Organizations' audit logs: appended to in the transaction of each audited change, read a page
 * or an export batch at a time, deleted only by retention. The actor's email and name are copied
 * in when the event is written, so the log keeps naming someone who later changed or left.
 */
export const AuditEventSchema = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_event',
  indexes: [
    {
      // Serves the listing and its keyset cursor (one organization, newest first) and the
      // export's batches (the same index walked forwards). It leads with organization_id, so it
      // also serves the foreign key's cascade.
      name: 'audit_event_organization_id_id_index',
      expression: 'create index "audit_event_organization_id_id_index" on "audit_event" ("organization_id", "id" desc)',
    },
  ],
  properties: {
    id: p.bigint().primary().autoincrement(),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(false),
    // Serves retention: "occurred before a cutoff", oldest first, in bounded batches.
    occurredAt: p.datetime().columnType('timestamptz(3)').index(),
    action: p.string().$type<AuditAction>().length(50),
    actorType: p.string().$type<AuditActorType>().length(20),
    actorId: p.bigint().nullable(),
    actorEmail: p.string().length(320).nullable(),
    actorName: p.string().length(201).nullable(),
    targetType: p.string().length(50).nullable(),
    targetId: p.string().length(100).nullable(),
    // An IPv6 address in its longest written form is 45 characters.
    ip: p.string().length(45).nullable(),
    userAgent: p.string().length(255).nullable(),
    details: p.json<Record<string, unknown>>().columnType('jsonb'),
  },
});
