import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { FakeClock } from '../support/fake-clock';
import { expectWindowsWalkTheList } from './list-window';

export interface OrganizationRepositoryHarness {
  organizations: OrganizationRepository;
  /** The clock the adapters stamp bookkeeping times from. */
  clock: FakeClock;
  teardown(): Promise<void>;
}

/** A time no test passes in: a stamp equal to it came from the harness's clock. */
export const CLOCK_TIME = new Date('2031-02-03T04:05:06.789Z');

export function describeOrganizationRepositoryContract(
  name: string,
  setup: () => Promise<OrganizationRepositoryHarness>,
): void {
  describe(`OrganizationRepository contract: ${name}`, () => {
    let h: OrganizationRepositoryHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('creates an active organization and finds it by id', async () => {
      const created = await h.organizations.create({ name: 'Acme Ltd' });

      expect(created).toEqual({ id: expect.any(Number), name: 'Acme Ltd', status: 'active', createdAt: expect.any(Date) });
      expect(created.createdAt.getTime()).not.toBeNaN();
      expect(await h.organizations.findById(created.id)).toEqual(created);
    });

    it("stamps createdAt from the adapter's clock", async () => {
      h.clock.set(CLOCK_TIME);

      const created = await h.organizations.create({ name: 'Acme Ltd' });

      expect(created.createdAt).toEqual(CLOCK_TIME);
      expect((await h.organizations.findById(created.id))?.createdAt).toEqual(CLOCK_TIME);
    });

    it('answers null, not an error, for an unknown id', async () => {
      await expect(h.organizations.findById(987_654)).resolves.toBeNull();
    });

    it('lists every organization, oldest first', async () => {
      const first = await h.organizations.create({ name: 'First' });
      const second = await h.organizations.create({ name: 'Second' });
      const third = await h.organizations.create({ name: 'Third' });

      expect((await h.organizations.list()).map((o) => o.id)).toEqual([first.id, second.id, third.id]);
    });

    it('pages the list: windows after a position, at most limit each, walk it whole and in order', async () => {
      for (const name of ['A', 'B', 'C', 'D', 'E']) await h.organizations.create({ name });
      await expectWindowsWalkTheList((window) => h.organizations.list(window), 2);
    });

    it('lists nothing when there are no organizations', async () => {
      await expect(h.organizations.list()).resolves.toEqual([]);
    });

    it('sets the status, returns the updated organization and keeps it', async () => {
      const org = await h.organizations.create({ name: 'Acme' });

      const suspended = await h.organizations.setStatus(org.id, 'suspended');

      expect(suspended).toEqual({ ...org, status: 'suspended' });
      expect(await h.organizations.findById(org.id)).toEqual(suspended);
      expect(await h.organizations.setStatus(org.id, 'active')).toEqual(org);
    });

    it('has both settings off at first, and changes only the keys given', async () => {
      const org = await h.organizations.create({ name: 'Acme' });
      const other = await h.organizations.create({ name: 'Globex' });
      await expect(h.organizations.findSettings(org.id)).resolves.toEqual({ overageEnabled: false, requireMfa: false });
      await expect(h.organizations.updateSettings(org.id, { requireMfa: true })).resolves.toEqual({ overageEnabled: false, requireMfa: true });
      await expect(h.organizations.updateSettings(org.id, { overageEnabled: true })).resolves.toEqual({ overageEnabled: true, requireMfa: true });
      await expect(h.organizations.updateSettings(org.id, {})).resolves.toEqual({ overageEnabled: true, requireMfa: true });
      await expect(h.organizations.findSettings(other.id)).resolves.toEqual({ overageEnabled: false, requireMfa: false });
      await expect(h.organizations.findSettings(987_654)).resolves.toBeNull();
      await expect(h.organizations.updateSettings(987_654, { requireMfa: true })).resolves.toBeNull();
    });

    it('answers null when setting the status of an unknown organization', async () => {
      await expect(h.organizations.setStatus(987_654, 'suspended')).resolves.toBeNull();
    });
  });
}
