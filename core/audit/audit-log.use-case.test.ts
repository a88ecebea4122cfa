import { describe, expect, it } from 'vitest';
import { auditHarness } from '../../test/builders/audit';
import type { AuditEvent } from './audit-event';
import { EXPORT_BATCH } from './export-audit-events.use-case';

const DAY = 86_400_000;

async function collect(events: AsyncIterable<AuditEvent>): Promise<AuditEvent[]> {
  const all: AuditEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

async function world() {
  const h = auditHarness();
  const { organizationId, users } = await h.anOrganization(['org_admin', 'member']);
  const admin = await h.loginAs(users[0]!);
  const member = await h.loginAs(users[1]!);
  const other = await h.anOrganization(['org_admin']);
  const system = await h.anOrganization(['sys_admin']);
  const sysAdmin = await h.loginAs(system.users[0]!);
  return { h, organizationId, admin, member, otherId: other.organizationId, sysAdmin };
}

describe('ListAuditEvents', () => {
  it("pages the caller's organization newest first; the cursor continues where the page ended", async () => {
    const { h, organizationId, admin, otherId } = await world();
    for (let i = 0; i < 5; i += 1) await h.anEvent(organizationId, { details: { i } });
    await h.anEvent(otherId, { details: { other: true } });
    const first = await h.list.execute(admin, { filter: { action: 'logout' }, page: { limit: 2 } });
    expect(first.items.map((e) => e.details)).toEqual([{ i: 4 }, { i: 3 }]);
    const second = await h.list.execute(admin, { filter: { action: 'logout' }, page: { limit: 10, cursor: first.nextCursor! } });
    expect(second.items.map((e) => e.details)).toEqual([{ i: 2 }, { i: 1 }, { i: 0 }]);
    expect(second.nextCursor).toBeNull();
  });

  it('filters by action, actor and time', async () => {
    const { h, organizationId, admin } = await world();
    const start = h.clock.now();
    await h.anEvent(organizationId, { action: 'login.failed', actor: { type: 'user', id: 7 } });
    h.clock.advance(DAY);
    await h.anEvent(organizationId, { action: 'logout', actor: { type: 'user', id: 8 } });
    const list = async (filter: Parameters<typeof h.list.execute>[1]['filter']) =>
      (await h.list.execute(admin, { filter, page: { limit: 10 } })).items.map((e) => `${e.action}:${e.actor.id}`);
    expect(await list({ action: 'login.failed' })).toEqual(['login.failed:7']);
    expect(await list({ actorId: 8 })).toEqual(['logout:8']);
    expect(await list({ since: new Date(start.getTime() + 1) })).toEqual(['logout:8']);
    expect(await list({ until: new Date(start.getTime() + 1), action: 'login.failed' })).toEqual(['login.failed:7']);
  });

  it('refuses an empty or reversed time range as VALIDATION_ERROR on until', async () => {
    const { h, admin } = await world();
    const at = h.clock.now();
    await expect(h.list.execute(admin, { filter: { since: at, until: at }, page: { limit: 1 } })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { until: 'Must be later than since' },
    });
  });

  it('is for org_admins: a member is refused', async () => {
    const { h, member } = await world();
    await expect(h.list.execute(member, { filter: {}, page: { limit: 1 } })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});

describe('ListOrganizationAuditEvents', () => {
  it("reads any organization's log for a sys_admin, and says so when the organization does not exist", async () => {
    const { h, otherId, sysAdmin, admin } = await world();
    await h.anEvent(otherId, { details: { mark: 'other' } });
    const page = await h.listOrganization.execute(sysAdmin, { organizationId: otherId, filter: { action: 'logout' }, page: { limit: 10 } });
    expect(page.items.map((e) => e.details)).toEqual([{ mark: 'other' }]);
    await expect(h.listOrganization.execute(sysAdmin, { organizationId: 999_999, filter: {}, page: { limit: 1 } })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'organization', resource_id: 999_999 },
    });
    await expect(h.listOrganization.execute(admin, { organizationId: otherId, filter: {}, page: { limit: 1 } })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});

describe('ExportAuditEvents', () => {
  it('reads the range oldest first across batches, only the caller\'s organization', async () => {
    const { h, organizationId, admin, otherId } = await world();
    const since = h.clock.now();
    for (let i = 0; i < EXPORT_BATCH + 5; i += 1) await h.anEvent(organizationId, { details: { i } });
    await h.anEvent(otherId);
    h.clock.advance(1);
    const { events } = h.exportEvents.execute(admin, { since, until: h.clock.now() });
    const all = (await collect(events)).filter((e) => e.action === 'logout');
    expect(all.map((e) => e.details.i)).toEqual(Array.from({ length: EXPORT_BATCH + 5 }, (_, i) => i));
    expect(all.every((e) => e.organizationId === organizationId)).toBe(true);
  });

  it('defaults to the 366 days up to now, and refuses a longer or reversed range before reading anything', async () => {
    const { h, admin } = await world();
    const now = h.clock.now();
    const range = h.exportEvents.execute(admin, {});
    expect([range.since, range.until]).toEqual([new Date(now.getTime() - 366 * DAY), now]);
    expect(() => h.exportEvents.execute(admin, { since: new Date(now.getTime() - 366 * DAY - 1), until: now })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: { until: 'Must be at most 366 days after since' } }),
    );
    expect(() => h.exportEvents.execute(admin, { since: now, until: new Date(now.getTime() - 1) })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('is for org_admins', async () => {
    const { h, member } = await world();
    expect(() => h.exportEvents.execute(member, {})).toThrow(expect.objectContaining({ code: 'ACCESS_DENIED' }));
  });
});

describe('PruneAuditEvents', () => {
  it('deletes what occurred more than the retention ago, in every organization, and nothing younger', async () => {
    const { h, organizationId, otherId } = await world();
    await h.anEvent(organizationId, { details: { old: true } });
    await h.anEvent(otherId, { details: { old: true } });
    h.clock.advance(DAY);
    await h.anEvent(organizationId, { details: { old: false } });
    h.clock.advance(364 * DAY + 1);
    const before = (await h.auditLog.recorded()).length;
    expect(await h.prune.execute()).toBe(before - 1);
    expect((await h.auditLog.recorded()).map((e) => e.details)).toEqual([{ old: false }]);
  });
});
