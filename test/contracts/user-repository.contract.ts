import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OneTimeTokenStore } from '../../core/accounts/one-time-token-store.port';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { SessionStore } from '../../core/accounts/session-store.port';
import type { NewUser, UserRepository } from '../../core/accounts/user-repository.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { FakeClock } from '../support/fake-clock';
import { CLOCK_TIME } from './organization-repository.contract';
import { expectWindowsWalkTheList } from './list-window';

export interface UserRepositoryHarness {
  /** The clock the adapters stamp bookkeeping times from. */
  clock: FakeClock;
  organizations: OrganizationRepository;
  users: UserRepository;
  sessions: SessionStore;
  tokens: OneTimeTokenStore;
  unitOfWork: UnitOfWork;
  /** No port deletes organizations yet; the harness does it the store's way, to check the cascade. */
  deleteOrganization(id: number): Promise<void>;
  teardown(): Promise<void>;
}

let sequence = 0;

/** A valid NewUser with a unique email; shared by the accounts contract suites. */
export function aNewUser(organizationId: number, overrides: Partial<NewUser> = {}): NewUser {
  sequence += 1;
  return {
    organizationId,
    email: `user-${sequence}-${process.pid}@example.test`,
    passwordHash: `$2b$04$${'x'.repeat(53)}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'member',
    emailVerified: false,
    ...overrides,
  };
}

/** A unique SHA-256 hex digest, as the stores receive for a token. */
export function aTokenHash(): string {
  sequence += 1;
  return createHash('sha256').update(`token-${process.pid}-${sequence}`).digest('hex');
}

const HOUR_MS = 3_600_000;

export function describeUserRepositoryContract(name: string, setup: () => Promise<UserRepositoryHarness>): void {
  describe(`UserRepository contract: ${name}`, () => {
    let h: UserRepositoryHarness;
    let orgId: number;
    let otherOrgId: number;

    beforeEach(async () => {
      h = await setup();
      orgId = (await h.organizations.create({ name: 'Acme' })).id;
      otherOrgId = (await h.organizations.create({ name: 'Globex' })).id;
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('creates an active user and finds it by id and by email', async () => {
      const input = aNewUser(orgId, { role: 'org_admin', emailVerified: true });

      const user = await h.users.create(input);

      const { emailVerified, ...rest } = input;
      expect(user).toEqual({ ...rest, id: expect.any(Number), emailVerified, status: 'active', credentialsVersion: 0, createdAt: expect.any(Date) });
      expect(user.createdAt.getTime()).not.toBeNaN();
      expect(await h.users.findById(user.id)).toEqual(user);
      expect(await h.users.findByEmail(input.email)).toEqual(user);
    });

    it("stamps createdAt from the adapter's clock", async () => {
      h.clock.set(CLOCK_TIME);

      const created = await h.users.create(aNewUser(orgId));

      expect(created.createdAt).toEqual(CLOCK_TIME);
      expect((await h.users.findById(created.id))?.createdAt).toEqual(CLOCK_TIME);
    });

    it('keeps null password and names (identity-provider accounts)', async () => {
      const user = await h.users.create(aNewUser(orgId, { passwordHash: null, firstName: null, lastName: null }));

      expect(await h.users.findById(user.id)).toMatchObject({ passwordHash: null, firstName: null, lastName: null });
    });

    it('answers null, not an error, for an unknown id or email', async () => {
      await expect(h.users.findById(987_654)).resolves.toBeNull();
      await expect(h.users.findByEmail('nobody@example.test')).resolves.toBeNull();
    });

    it('rejects a taken email with EMAIL_ALREADY_EXISTS, in any organization, and keeps the first user', async () => {
      const first = await h.users.create(aNewUser(orgId));

      await expect(h.users.create(aNewUser(orgId, { email: first.email }))).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
      await expect(h.users.create(aNewUser(otherOrgId, { email: first.email }))).rejects.toMatchObject({
        code: 'EMAIL_ALREADY_EXISTS',
      });
      expect(await h.users.findByEmail(first.email)).toEqual(first);
      expect(await h.users.listByOrganization(otherOrgId)).toEqual([]);
    });

    it('leaves the transaction usable after rejecting a taken email', async () => {
      const taken = await h.users.create(aNewUser(orgId));
      const next = aNewUser(orgId);

      await h.unitOfWork.transaction(async () => {
        await expect(h.users.create(aNewUser(orgId, { email: taken.email }))).rejects.toMatchObject({
          code: 'EMAIL_ALREADY_EXISTS',
        });
        await h.users.create(next);
      });

      expect(await h.users.findByEmail(next.email)).not.toBeNull();
    });

    it('marks the email verified, idempotently', async () => {
      const user = await h.users.create(aNewUser(orgId));

      await h.users.markEmailVerified(user.id);
      await h.users.markEmailVerified(user.id);

      expect(await h.users.findById(user.id)).toEqual({ ...user, emailVerified: true });
      await expect(h.users.markEmailVerified(987_654)).resolves.toBeUndefined();
    });

    it('sets and removes the password hash', async () => {
      const user = await h.users.create(aNewUser(orgId));

      expect(user.credentialsVersion).toBe(0);
      await expect(h.users.setPasswordHash(user.id, '$2b$04$new-hash')).resolves.toBe(1);
      expect((await h.users.findById(user.id))?.passwordHash).toBe('$2b$04$new-hash');

      await expect(h.users.setPasswordHash(user.id, null)).resolves.toBe(2);
      expect(await h.users.findById(user.id)).toEqual({ ...user, passwordHash: null, credentialsVersion: 2 });
      await expect(h.users.setPasswordHash(2_000_000_000, null)).resolves.toBeNull();
    });

    it('changes the password only at the expected credentials version, so the later of two racing changes loses', async () => {
      const user = await h.users.create(aNewUser(orgId));

      await expect(h.users.setPasswordHash(user.id, '$2b$04$first', 0)).resolves.toBe(1);
      await expect(h.users.setPasswordHash(user.id, '$2b$04$second', 0)).resolves.toBeNull();
      expect(await h.users.findById(user.id)).toMatchObject({ passwordHash: '$2b$04$first', credentialsVersion: 1 });
    });

    it("lists an organization's users and no one else's", async () => {
      const a = await h.users.create(aNewUser(orgId));
      const b = await h.users.create(aNewUser(orgId, { role: 'readonly' }));
      await h.users.create(aNewUser(otherOrgId));

      const listed = await h.users.listByOrganization(orgId);

      expect([...listed].sort((x, y) => x.id - y.id)).toEqual([a, b]);
      expect(await h.users.listByOrganization(987_654)).toEqual([]);
    });

    it("pages an organization's users in joining order", async () => {
      for (let i = 0; i < 5; i += 1) await h.users.create(aNewUser(orgId));
      await h.users.create(aNewUser(otherOrgId));
      await expectWindowsWalkTheList((window) => h.users.listByOrganization(orgId, window), 2);
    });

    it('sets the names it is given, leaves the others, clears with null, and returns the updated user', async () => {
      const user = await h.users.create(aNewUser(orgId, { firstName: 'Ada', lastName: 'Lovelace' }));

      const renamed = await h.users.updateName(user.id, { firstName: 'Augusta' });
      expect(renamed).toEqual({ ...user, firstName: 'Augusta' });
      const cleared = await h.users.updateName(user.id, { firstName: 'Zoë 🚀', lastName: null });
      expect(cleared).toEqual({ ...user, firstName: 'Zoë 🚀', lastName: null });
      expect(await h.users.findById(user.id)).toEqual(cleared);
    });

    it('answers null for an unknown user when renaming', async () => {
      await expect(h.users.updateName(987_654, { firstName: 'Nobody' })).resolves.toBeNull();
    });

    it('updates the role within the organization and returns the updated user', async () => {
      const user = await h.users.create(aNewUser(orgId));

      const updated = await h.users.updateRole(orgId, user.id, 'org_admin');

      expect(updated).toEqual({ ...user, role: 'org_admin' });
      expect(await h.users.findById(user.id)).toEqual(updated);
    });

    it("answers null and changes nothing when updating the role of another organization's or an unknown user", async () => {
      const user = await h.users.create(aNewUser(orgId));

      await expect(h.users.updateRole(otherOrgId, user.id, 'org_admin')).resolves.toBeNull();
      await expect(h.users.updateRole(orgId, 987_654, 'org_admin')).resolves.toBeNull();
      expect(await h.users.findById(user.id)).toEqual(user);
    });

    it('deletes a user of the organization, once', async () => {
      const user = await h.users.create(aNewUser(orgId));

      await expect(h.users.delete(orgId, user.id)).resolves.toBe(true);
      await expect(h.users.findById(user.id)).resolves.toBeNull();
      await expect(h.users.findByEmail(user.email)).resolves.toBeNull();
      await expect(h.users.delete(orgId, user.id)).resolves.toBe(false);
    });

    it("refuses to delete another organization's user", async () => {
      const user = await h.users.create(aNewUser(orgId));

      await expect(h.users.delete(otherOrgId, user.id)).resolves.toBe(false);
      expect(await h.users.findById(user.id)).toEqual(user);
    });

    it("deleting a user deletes their sessions and tokens, and no one else's", async () => {
      const user = await h.users.create(aNewUser(orgId));
      const other = await h.users.create(aNewUser(orgId));
      const now = new Date();
      const expiresAt = new Date(now.getTime() + HOUR_MS);
      const [session, otherSession, token] = [aTokenHash(), aTokenHash(), aTokenHash()];
      await h.sessions.create({ userId: user.id, tokenHash: session, createdAt: now, expiresAt, credentialsVersion: 0 });
      await h.sessions.create({ userId: other.id, tokenHash: otherSession, createdAt: now, expiresAt, credentialsVersion: 0 });
      await h.tokens.issue({ userId: user.id, purpose: 'reset_password', tokenHash: token, expiresAt });

      await h.users.delete(orgId, user.id);

      await expect(h.sessions.findByTokenHash(session)).resolves.toBeNull();
      await expect(h.tokens.consume('reset_password', token, now)).resolves.toBeNull();
      await expect(h.sessions.findByTokenHash(otherSession)).resolves.toMatchObject({ userId: other.id });
    });

    it('deleting an organization deletes its users and their sessions', async () => {
      const user = await h.users.create(aNewUser(orgId));
      const outsider = await h.users.create(aNewUser(otherOrgId));
      const now = new Date();
      const tokenHash = aTokenHash();
      await h.sessions.create({ userId: user.id, tokenHash, createdAt: now, expiresAt: new Date(now.getTime() + HOUR_MS), credentialsVersion: 0 });

      await h.deleteOrganization(orgId);

      await expect(h.users.findById(user.id)).resolves.toBeNull();
      await expect(h.users.listByOrganization(orgId)).resolves.toEqual([]);
      await expect(h.sessions.findByTokenHash(tokenHash)).resolves.toBeNull();
      await expect(h.users.findById(outsider.id)).resolves.toEqual(outsider);
    });

    it('counts the users holding a role in the organization only', async () => {
      await h.users.create(aNewUser(orgId, { role: 'org_admin' }));
      await h.users.create(aNewUser(orgId, { role: 'org_admin' }));
      const member = await h.users.create(aNewUser(orgId, { role: 'member' }));
      await h.users.create(aNewUser(otherOrgId, { role: 'org_admin' }));

      await expect(h.users.countByRole(orgId, 'org_admin')).resolves.toBe(2);
      await expect(h.users.countByRole(orgId, 'member')).resolves.toBe(1);
      await expect(h.users.countByRole(orgId, 'readonly')).resolves.toBe(0);

      await h.users.updateRole(orgId, member.id, 'org_admin');
      await expect(h.users.countByRole(orgId, 'org_admin')).resolves.toBe(3);

      await h.users.setStatus(orgId, member.id, 'suspended');
      await expect(h.users.countByRole(orgId, 'org_admin')).resolves.toBe(2);
    });

    it('sets the status within the organization only, idempotently', async () => {
      const user = await h.users.create(aNewUser(orgId));
      await expect(h.users.setStatus(otherOrgId, user.id, 'suspended')).resolves.toBeNull();
      await expect(h.users.setStatus(orgId, 987_654, 'suspended')).resolves.toBeNull();
      await expect(h.users.setStatus(orgId, user.id, 'suspended')).resolves.toEqual({ ...user, status: 'suspended' });
      await expect(h.users.setStatus(orgId, user.id, 'suspended')).resolves.toMatchObject({ status: 'suspended' });
      await expect(h.users.findById(user.id)).resolves.toMatchObject({ status: 'suspended' });
      await expect(h.users.setStatus(orgId, user.id, 'active')).resolves.toEqual(user);
    });

    it('replaces the password hash only while it is still the expected one', async () => {
      const user = await h.users.create(aNewUser(orgId, { passwordHash: 'old-hash' }));
      await expect(h.users.replacePasswordHash(user.id, 'other-hash', 'new-hash')).resolves.toBe(false);
      await expect(h.users.findById(user.id)).resolves.toMatchObject({ passwordHash: 'old-hash' });
      await expect(h.users.replacePasswordHash(user.id, 'old-hash', 'new-hash')).resolves.toBe(true);
      await expect(h.users.replacePasswordHash(user.id, 'old-hash', 'newer-hash')).resolves.toBe(false);
      await expect(h.users.findById(user.id)).resolves.toMatchObject({ passwordHash: 'new-hash' });
      await expect(h.users.replacePasswordHash(987_654, 'old-hash', 'x')).resolves.toBe(false);
    });

    it('counts sys_admins across every organization', async () => {
      const before = await h.users.countSysAdmins();
      await h.users.create(aNewUser(orgId, { role: 'sys_admin' }));
      const second = await h.users.create(aNewUser(otherOrgId, { role: 'sys_admin' }));
      await h.users.create(aNewUser(orgId, { role: 'org_admin' }));

      await expect(h.users.countSysAdmins()).resolves.toBe(before + 2);
      await h.users.updateRole(otherOrgId, second.id, 'member');
      await expect(h.unitOfWork.transaction(() => h.users.countSysAdmins())).resolves.toBe(before + 1);
    });
  });
}
