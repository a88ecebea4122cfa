import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { User } from '../../core/accounts/user';
import type { NewAuditEvent } from '../../core/audit/audit-event';
import type { AuditLog } from '../../core/audit/audit-log.port';
import type { AuditEventRepository } from '../../core/audit/audit-event-repository.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { FakeClock } from '../support/fake-clock';
import { aNewUser } from './user-repository.contract';

export interface AuditLogHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  /** The writing side and the reading side: one adapter implements both. */
  audit: AuditLog;
  events: AuditEventRepository;
  unitOfWork: UnitOfWork;
  /** The clock the adapters stamp `occurredAt` from. */
  clock: FakeClock;
  /** Deletes the organization as the database does (the port has no such method). */
  deleteOrganization(id: number): Promise<void>;
  teardown(): Promise<void>;
}

const T0 = new Date('2026-11-21T10:00:00.000Z');

/** AuditLog and AuditEventRepository: one suite, run on every adapter. */
export function describeAuditLogContract(name: string, setup: () => Promise<AuditLogHarness>): void {
  describe(`audit log contract (${name})`, () => {
    let h: AuditLogHarness;
    let orgA: number;
    let orgB: number;
    let alice: User;

    const anEvent = (overrides: Partial<NewAuditEvent> = {}): NewAuditEvent => ({
      organizationId: orgA,
      action: 'login.succeeded',
      actor: { type: 'user', id: alice.id },
      target: null,
      origin: { ip: '198.51.100.4', userAgent: 'curl/8.0' },
      details: { method: 'password' },
      ...overrides,
    });

    beforeEach(async () => {
      h = await setup();
      h.clock.set(T0);
      orgA = (await h.organizations.create({ name: 'A' })).id;
      orgB = (await h.organizations.create({ name: 'B' })).id;
      alice = await h.users.create({ ...aNewUser(orgA), email: 'alice@example.com', firstName: 'Alice', lastName: 'Liddell' });
    });

    afterEach(() => h.teardown());

    it('records an event with every field, the time from the clock and the actor named as their row says', async () => {
      await h.audit.record(anEvent({ target: { type: 'session', id: '42' }, details: { method: 'password', nested: { a: [1, 'b'] } } }));
      const [event] = await h.events.listNewestFirst(orgA, {}, { limit: 10 });
      expect(event).toMatchObject({
        organizationId: orgA,
        occurredAt: T0,
        action: 'login.succeeded',
        actor: { type: 'user', id: alice.id, email: 'alice@example.com', name: 'Alice Liddell' },
        target: { type: 'session', id: '42' },
        origin: { ip: '198.51.100.4', userAgent: 'curl/8.0' },
        details: { method: 'password', nested: { a: [1, 'b'] } },
      });
      expect(event!.id).toBeGreaterThan(0);
    });

    it('keeps the name the recorder gave, and names no one for the system or an unknown user', async () => {
      await h.audit.record(anEvent({ actor: { type: 'api_key', id: 9, name: 'CI deploy key' } }));
      await h.audit.record(anEvent({ actor: { type: 'system', id: null }, origin: { ip: null, userAgent: null } }));
      await h.audit.record(anEvent({ actor: { type: 'user', id: 999_999 } }));
      const events = await h.events.listOldestFirst(orgA, { since: T0, until: new Date(T0.getTime() + 1) }, { limit: 10 });
      expect(events.map((e) => e.actor)).toEqual([
        { type: 'api_key', id: 9, email: null, name: 'CI deploy key' },
        { type: 'system', id: null, email: null, name: null },
        { type: 'user', id: 999_999, email: null, name: null },
      ]);
      expect(events[1]!.origin).toEqual({ ip: null, userAgent: null });
    });

    it('keeps the actor as they were when the event happened', async () => {
      await h.audit.record(anEvent());
      await h.users.updateName(alice.id, { firstName: 'Alicia' });
      const [event] = await h.events.listNewestFirst(orgA, {}, { limit: 1 });
      expect(event!.actor.name).toBe('Alice Liddell');
    });

    it('lists one organization newest first, by keyset windows on the id', async () => {
      for (let i = 0; i < 5; i += 1) await h.audit.record(anEvent({ details: { i } }));
      await h.audit.record(anEvent({ organizationId: orgB }));
      const first = await h.events.listNewestFirst(orgA, {}, { limit: 2 });
      expect(first.map((e) => e.details)).toEqual([{ i: 4 }, { i: 3 }]);
      const next = await h.events.listNewestFirst(orgA, {}, { limit: 10, beforeId: first[1]!.id });
      expect(next.map((e) => e.details)).toEqual([{ i: 2 }, { i: 1 }, { i: 0 }]);
      expect((await h.events.listNewestFirst(orgB, {}, { limit: 10 })).every((e) => e.organizationId === orgB)).toBe(true);
    });

    it('filters by action, actor and time (since inclusive, until exclusive)', async () => {
      await h.audit.record(anEvent({ action: 'login.failed' }));
      h.clock.advanceSeconds(60);
      await h.audit.record(anEvent({ action: 'logout' }));
      h.clock.advanceSeconds(60);
      await h.audit.record(anEvent({ action: 'logout', actor: { type: 'user', id: alice.id + 1000 } }));
      const list = (filter: Parameters<AuditEventRepository['listNewestFirst']>[1]) =>
        h.events.listNewestFirst(orgA, filter, { limit: 10 }).then((events) => events.map((e) => e.action + '@' + (e.occurredAt.getTime() - T0.getTime()) / 1000));
      expect(await list({ action: 'logout' })).toEqual(['logout@120', 'logout@60']);
      expect(await list({ actorId: alice.id })).toEqual(['logout@60', 'login.failed@0']);
      expect(await list({ since: new Date(T0.getTime() + 60_000) })).toEqual(['logout@120', 'logout@60']);
      expect(await list({ until: new Date(T0.getTime() + 60_000) })).toEqual(['login.failed@0']);
      expect(await list({ action: 'logout', actorId: alice.id, since: T0, until: new Date(T0.getTime() + 61_000) })).toEqual(['logout@60']);
      // A key with the user's id: the actor's type tells them apart.
      await h.audit.record(anEvent({ action: 'logout', actor: { type: 'api_key', id: alice.id } }));
      expect(await list({ actorId: alice.id, actorType: 'user' })).toEqual(['logout@60', 'login.failed@0']);
      expect(await list({ actorType: 'api_key' })).toEqual(['logout@120']);
    });

    it('reads an export oldest first, in batches after an id, within [since, until)', async () => {
      for (let i = 0; i < 5; i += 1) {
        await h.audit.record(anEvent({ details: { i } }));
        h.clock.advanceSeconds(10);
      }
      const range = { since: new Date(T0.getTime() + 10_000), until: new Date(T0.getTime() + 40_000) };
      const first = await h.events.listOldestFirst(orgA, range, { limit: 2 });
      expect(first.map((e) => e.details)).toEqual([{ i: 1 }, { i: 2 }]);
      const second = await h.events.listOldestFirst(orgA, range, { limit: 2, afterId: first[1]!.id });
      expect(second.map((e) => e.details)).toEqual([{ i: 3 }]);
      expect(await h.events.listOldestFirst(orgB, range, { limit: 2 })).toEqual([]);
    });

    it('records inside the caller\'s transaction: a rollback takes the event with it', async () => {
      await expect(
        h.unitOfWork.transaction(async () => {
          await h.audit.record(anEvent());
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await h.events.listNewestFirst(orgA, {}, { limit: 10 })).toEqual([]);
      await h.unitOfWork.transaction(() => h.audit.record(anEvent()));
      expect(await h.events.listNewestFirst(orgA, {}, { limit: 10 })).toHaveLength(1);
    });

    it('refuses an event of an organization that does not exist', async () => {
      await expect(h.audit.record(anEvent({ organizationId: 987_654 }))).rejects.toThrow();
    });

    it('prunes what occurred before the cutoff, across organizations, oldest first in bounded batches', async () => {
      await h.audit.record(anEvent({ details: { i: 0 } }));
      await h.audit.record(anEvent({ organizationId: orgB, details: { i: 1 } }));
      h.clock.advanceSeconds(10);
      await h.audit.record(anEvent({ details: { i: 2 } }));
      h.clock.advanceSeconds(10);
      await h.audit.record(anEvent({ details: { i: 3 } }));
      const cutoff = new Date(T0.getTime() + 20_000);
      expect(await h.events.pruneOccurredBefore(cutoff, 2)).toBe(2);
      expect(await h.events.pruneOccurredBefore(cutoff, 2)).toBe(1);
      expect(await h.events.pruneOccurredBefore(cutoff, 2)).toBe(0);
      expect((await h.events.listNewestFirst(orgA, {}, { limit: 10 })).map((e) => e.details)).toEqual([{ i: 3 }]);
      expect(await h.events.listNewestFirst(orgB, {}, { limit: 10 })).toEqual([]);
    });

    it('goes with its organization', async () => {
      await h.audit.record(anEvent({ organizationId: orgB }));
      await h.deleteOrganization(orgB);
      expect(await h.events.listNewestFirst(orgB, {}, { limit: 10 })).toEqual([]);
    });
  });
}
