import { Readable } from 'node:stream';
import * as v from 'valibot';
import type { Context } from 'koa';
import { listBody, STREAM_BATCH } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import { AuditEventResponse, ExportAuditEventsQuery, ListAuditEventsQuery } from '../schemas/audit.schemas';
import { OrganizationIdParams } from '../schemas/organization.schemas';
import type { AuditEvent } from '../../../core/audit/audit-event';
import type { AuditFilter } from '../../../core/audit/audit-event-repository.port';
import type { ExportAuditEvents } from '../../../core/audit/export-audit-events.use-case';
import type { ListAuditEvents } from '../../../core/audit/list-audit-events.use-case';
import type { ListOrganizationAuditEvents } from '../../../core/audit/list-organization-audit-events.use-case';

export interface AuditUseCases {
  listAuditEvents: ListAuditEvents;
  listOrganizationAuditEvents: ListOrganizationAuditEvents;
  exportAuditEvents: ExportAuditEvents;
}

/** An event on the wire: `email` and `name` only when the log knows them. */
export const toAuditEventResponse = (event: AuditEvent): v.InferOutput<typeof AuditEventResponse> => ({
  id: event.id,
  occurred_at: event.occurredAt.toISOString(),
  action: event.action,
  actor: {
    type: event.actor.type,
    id: event.actor.id,
    ...(event.actor.email === null ? {} : { email: event.actor.email }),
    ...(event.actor.name === null ? {} : { name: event.actor.name }),
  },
  target: event.target,
  ip: event.origin.ip,
  user_agent: event.origin.userAgent,
  details: event.details,
});

type ListQuery = v.InferOutput<typeof ListAuditEventsQuery>;

const filterOf = (query: ListQuery): AuditFilter => ({
  ...(query.action === undefined ? {} : { action: query.action }),
  ...(query.actor_type === undefined ? {} : { actorType: query.actor_type }),
  ...(query.actor_id === undefined ? {} : { actorId: query.actor_id }),
  ...(query.since === undefined ? {} : { since: query.since }),
  ...(query.until === undefined ? {} : { until: query.until }),
});

/** The filters again, for the next page's link: a page of a filtered list continues that list. */
const filterParams = (query: ListQuery): Record<string, string> => ({
  ...(query.action === undefined ? {} : { action: query.action }),
  ...(query.actor_type === undefined ? {} : { actor_type: query.actor_type }),
  ...(query.actor_id === undefined ? {} : { actor_id: String(query.actor_id) }),
  ...(query.since === undefined ? {} : { since: query.since.toISOString() }),
  ...(query.until === undefined ? {} : { until: query.until.toISOString() }),
});

const TAG = 'Audit';

/** An export may read a year of events: enough for a collector every few minutes, not for a loop. */
const EXPORT_LIMIT = { bucket: 'audit-export', rule: '60/hour', per: 'user' } as const;

const LIST_DESCRIPTION =
  'Newest first. Filters: `action`, `actor_type` (`user`, `api_key`, `system`), `actor_id` (a user or API key id), `since` (inclusive) and `until` (exclusive), ISO-8601 timestamps with an offset; ' +
  '`since` must be earlier than `until`. With `limit`, one page, and `Link: <…>; rel="next"` while more remain (it carries the filters): follow it as it is. ' +
  `Without \`limit\`, every matching event, streamed ${STREAM_BATCH} at a time. Events are never changed or deleted by any route; retention deletes them after \`APP_AUDIT_RETENTION_DAYS\`.`;

export function auditRoutes(useCases: AuditUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit-events',
      tag: TAG,
      operationId: 'listAuditEvents',
      summary: "List the caller's organization's audit events, newest first",
      description: LIST_DESCRIPTION,
      access: 'org_admin',
      // A SIEM export is a script's job: an org_admin key reads the organization's log too.
      apiKeys: 'accepted',
      query: ListAuditEventsQuery,
      responses: { 200: { description: 'A page of events; all of them without `limit`', schema: v.array(AuditEventResponse), headers: NEXT_LINK_HEADER } },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(
          ctx,
          query,
          { page: (page) => useCases.listAuditEvents.execute(caller, { filter: filterOf(query), page }), toResponse: toAuditEventResponse },
          { baseApiUrl: options.baseApiUrl, path: '/audit-events', query: filterParams(query) },
        ),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/audit-events/export',
      tag: TAG,
      operationId: 'exportAuditEvents',
      summary: "Export the caller's organization's audit events of a time range as NDJSON, oldest first",
      description:
        'One JSON `AuditEvent` per line (`application/x-ndjson`), oldest first, for a SIEM or an archive. `since` (inclusive) and `until` (exclusive) are at most 366 days apart; ' +
        'without them, the 366 days up to now. The response is streamed as it is read, a batch at a time, so an export of any size costs the server one batch of memory. ' +
        'To collect continuously, ask again from the `occurred_at` of the last line received and skip the ids already seen. ' +
        'At most 60 exports an hour per caller (429 `RATE_LIMITED` with `Retry-After`).',
      access: 'org_admin',
      // A SIEM export is a script's job: an org_admin key reads the organization's log too.
      apiKeys: 'accepted',
      rateLimit: EXPORT_LIMIT,
      query: ExportAuditEventsQuery,
      responses: { 200: { description: 'One AuditEvent JSON object per line', mediaType: 'application/x-ndjson' } },
      handler: async ({ caller, query, ctx }) => {
        const { since, until, events } = useCases.exportAuditEvents.execute(caller, { ...(query.since ? { since: query.since } : {}), ...(query.until ? { until: query.until } : {}) });
        ctx.type = 'application/x-ndjson; charset=utf-8';
        const stamp = (date: Date) => date.toISOString().replace(/[:.]/g, '-');
        ctx.set('Content-Disposition', `attachment; filename="audit-events-${stamp(since)}-${stamp(until)}.ndjson"`);
        return { status: 200, body: await ndjsonBody(ctx, events) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/organizations/{organization_id}/audit-events',
      tag: TAG,
      operationId: 'listOrganizationAuditEvents',
      summary: "List any organization's audit events, newest first (sys_admin)",
      description: `As \`listAuditEvents\`, for the organization named in the path. An unknown organization: 404 \`RESOURCE_NOT_FOUND\`. ${LIST_DESCRIPTION}`,
      access: 'sys_admin',
      apiKeys: 'refused',
      params: OrganizationIdParams,
      query: ListAuditEventsQuery,
      responses: { 200: { description: 'A page of events; all of them without `limit`', schema: v.array(AuditEventResponse), headers: NEXT_LINK_HEADER } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params, query, ctx }) => ({
        status: 200,
        body: await listBody(
          ctx,
          query,
          {
            page: (page) => useCases.listOrganizationAuditEvents.execute(caller, { organizationId: params.organization_id, filter: filterOf(query), page }),
            toResponse: toAuditEventResponse,
          },
          { baseApiUrl: options.baseApiUrl, path: `/organizations/${params.organization_id}/audit-events`, query: filterParams(query) },
        ),
      }),
    }),
  ];
}

/** Characters gathered before they are written: fewer, larger writes than one per event. */
const CHUNK_CHARACTERS = 64 * 1024;

/**
 * The events as NDJSON text, pulled by the response stream as the client reads (back-pressure):
 * the next batch is not read while the previous one waits to be sent. The first batch is read
 * before the answer starts, so a database that is down is still a 503; a failure once the body
 * has begun cannot become an error answer: the response is cut short, so a consumer sees a broken
 * last line, never a complete-looking export.
 */
async function ndjsonBody(ctx: Context, events: AsyncIterable<AuditEvent>): Promise<Readable> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* lines(): AsyncGenerator<string> {
    let chunk = '';
    let next = first;
    while (!next.done) {
      chunk += `${JSON.stringify(toAuditEventResponse(next.value))}\n`;
      if (chunk.length >= CHUNK_CHARACTERS) {
        yield chunk;
        chunk = '';
      }
      try {
        next = await iterator.next();
      } catch (error) {
        ctx.state.log?.error({ err: error }, `GET ${ctx.path} failed while streaming: response cut short`);
        ctx.res.destroy();
        return;
      }
    }
    if (chunk !== '') yield chunk;
  }
  return Readable.from(lines(), { objectMode: false });
}
