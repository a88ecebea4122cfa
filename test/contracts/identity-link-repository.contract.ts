import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdentityLinkRepository } from '../../core/accounts/identity-link-repository.port';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { User } from '../../core/accounts/user';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import { aNewUser } from './user-repository.contract';

export interface IdentityLinkRepositoryHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  links: IdentityLinkRepository;
  unitOfWork: UnitOfWork;
  teardown(): Promise<void>;
}

const ISSUER = 'https://accounts.example.com';
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);

export function describeIdentityLinkRepositoryContract(name: string, setup: () => Promise<IdentityLinkRepositoryHarness>): void {
  describe(`IdentityLinkRepository contract: ${name}`, () => {
    let h: IdentityLinkRepositoryHarness;
    let user: User;
    let other: User;

    beforeEach(async () => {
      h = await setup();
      const org = await h.organizations.create({ name: 'Acme' });
      user = await h.users.create(aNewUser(org.id));
      other = await h.users.create(aNewUser(org.id));
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('links an identity and finds it by (issuer, subject)', async () => {
      const link = await h.links.create({ userId: user.id, issuer: ISSUER, subject: '1234567890', createdAt: at(0) });

      expect(link).toEqual({ id: expect.any(Number), userId: user.id, issuer: ISSUER, subject: '1234567890', createdAt: at(0) });
      await expect(h.links.findBySubject(ISSUER, '1234567890')).resolves.toEqual(link);
    });

    it('matches both parts exactly and case-sensitively', async () => {
      await h.links.create({ userId: user.id, issuer: ISSUER, subject: 'AbC', createdAt: at(0) });

      await expect(h.links.findBySubject(ISSUER, 'abc')).resolves.toBeNull();
      await expect(h.links.findBySubject(`${ISSUER}/`, 'AbC')).resolves.toBeNull();
      await expect(h.links.findBySubject('https://other.example.com', 'AbC')).resolves.toBeNull();
    });

    it('refuses a second link of the same identity, to anyone, and keeps the first', async () => {
      const first = await h.links.create({ userId: user.id, issuer: ISSUER, subject: 's', createdAt: at(0) });

      await expect(h.links.create({ userId: other.id, issuer: ISSUER, subject: 's', createdAt: at(1) })).rejects.toThrow();
      await expect(h.links.create({ userId: user.id, issuer: ISSUER, subject: 's', createdAt: at(1) })).rejects.toThrow();
      await expect(h.links.findBySubject(ISSUER, 's')).resolves.toEqual(first);
    });

    it('gives exactly one of two concurrent links of one identity', async () => {
      const results = await Promise.allSettled([
        h.links.create({ userId: user.id, issuer: ISSUER, subject: 'race', createdAt: at(0) }),
        h.links.create({ userId: other.id, issuer: ISSUER, subject: 'race', createdAt: at(0) }),
      ]);

      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    });

    it("lets a user hold several identities, listed oldest first, and keeps users' lists apart", async () => {
      const second = await h.links.create({ userId: user.id, issuer: 'https://b.example.com', subject: 'x', createdAt: at(2) });
      const first = await h.links.create({ userId: user.id, issuer: ISSUER, subject: 'x', createdAt: at(1) });
      const others = await h.links.create({ userId: other.id, issuer: ISSUER, subject: 'y', createdAt: at(0) });

      await expect(h.links.listByUser(user.id)).resolves.toEqual([first, second]);
      await expect(h.links.listByUser(other.id)).resolves.toEqual([others]);
      await expect(h.links.listByUser(987_654)).resolves.toEqual([]);
    });

    it('refuses a link to a user that does not exist', async () => {
      await expect(h.links.create({ userId: 987_654, issuer: ISSUER, subject: 'ghost', createdAt: at(0) })).rejects.toThrow();
      await expect(h.links.findBySubject(ISSUER, 'ghost')).resolves.toBeNull();
    });

    it('deletes the links of a deleted user, and only theirs', async () => {
      await h.links.create({ userId: user.id, issuer: ISSUER, subject: 'gone', createdAt: at(0) });
      const kept = await h.links.create({ userId: other.id, issuer: ISSUER, subject: 'kept', createdAt: at(0) });

      expect(await h.users.delete(user.organizationId, user.id)).toBe(true);

      await expect(h.links.findBySubject(ISSUER, 'gone')).resolves.toBeNull();
      await expect(h.links.findBySubject(ISSUER, 'kept')).resolves.toEqual(kept);
    });

    it('rolls a link back with its transaction', async () => {
      const failing = h.unitOfWork.transaction(async () => {
        await h.links.create({ userId: user.id, issuer: ISSUER, subject: 'rolled-back', createdAt: at(0) });
        throw new Error('rolled back');
      });

      await expect(failing).rejects.toThrow('rolled back');
      await expect(h.links.findBySubject(ISSUER, 'rolled-back')).resolves.toBeNull();
    });
  });
}
