import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OneTimeTokenStore, TokenPurpose } from '../../core/accounts/one-time-token-store.port';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { User } from '../../core/accounts/user';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { FakeClock } from '../support/fake-clock';
import { CLOCK_TIME } from './organization-repository.contract';
import { aNewUser, aTokenHash } from './user-repository.contract';

export interface OneTimeTokenStoreHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  tokens: OneTimeTokenStore;
  unitOfWork: UnitOfWork;
  /** The clock the adapters stamp bookkeeping times from. */
  clock: FakeClock;
  /** The token's stamps, read the store's way (the port does not return them). */
  tokenTimes(tokenHash: string): Promise<{ createdAt: Date; usedAt: Date | null }>;
  teardown(): Promise<void>;
}

const NOW = new Date('2030-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const HOUR_MS = 3_600_000;

export function describeOneTimeTokenStoreContract(name: string, setup: () => Promise<OneTimeTokenStoreHarness>): void {
  describe(`OneTimeTokenStore contract: ${name}`, () => {
    let h: OneTimeTokenStoreHarness;
    let user: User;
    let other: User;

    const issue = async (owner: User, purpose: TokenPurpose, expiresAt = later(HOUR_MS)) => {
      const tokenHash = aTokenHash();
      await h.tokens.issue({ userId: owner.id, purpose, tokenHash, expiresAt });
      return tokenHash;
    };

    beforeEach(async () => {
      h = await setup();
      const org = await h.organizations.create({ name: 'Acme' });
      user = await h.users.create(aNewUser(org.id));
      other = await h.users.create(aNewUser(org.id));
    });

    afterEach(async () => {
      await h.teardown();
    });

    it("consumes an issued token once, answering its user's id, then null", async () => {
      const token = await issue(user, 'verify_email');

      await expect(h.tokens.consume('verify_email', token, NOW)).resolves.toBe(user.id);
      await expect(h.tokens.consume('verify_email', token, NOW)).resolves.toBeNull();
    });

    it("stamps issue and revocation from the adapter's clock, and consumption at the given now", async () => {
      h.clock.set(CLOCK_TIME);
      const consumed = await issue(user, 'verify_email');
      const revoked = await issue(user, 'reset_password');
      expect(await h.tokenTimes(consumed)).toEqual({ createdAt: CLOCK_TIME, usedAt: null });

      await h.tokens.consume('verify_email', consumed, NOW);
      h.clock.advance(1_234);
      await h.tokens.revokeAll(user.id, 'reset_password');

      expect(await h.tokenTimes(consumed)).toEqual({ createdAt: CLOCK_TIME, usedAt: NOW });
      expect(await h.tokenTimes(revoked)).toEqual({ createdAt: CLOCK_TIME, usedAt: new Date(CLOCK_TIME.getTime() + 1_234) });
    });

    it('answers null for an unknown token', async () => {
      await expect(h.tokens.consume('reset_password', aTokenHash(), NOW)).resolves.toBeNull();
    });

    it('is scoped to its purpose: the wrong purpose answers null and leaves the token usable', async () => {
      const token = await issue(user, 'reset_password');

      await expect(h.tokens.consume('verify_email', token, NOW)).resolves.toBeNull();
      await expect(h.tokens.consume('reset_password', token, NOW)).resolves.toBe(user.id);
    });

    it('is valid while now < expiresAt, to the millisecond', async () => {
      const expiresAt = later(HOUR_MS);
      const token = await issue(user, 'reset_password', expiresAt);

      await expect(h.tokens.consume('reset_password', token, expiresAt)).resolves.toBeNull();
      await expect(h.tokens.consume('reset_password', token, later(HOUR_MS + 1))).resolves.toBeNull();
      await expect(h.tokens.consume('reset_password', token, later(HOUR_MS - 1))).resolves.toBe(user.id);
    });

    it('keeps older tokens valid when a new one is issued', async () => {
      const older = await issue(user, 'verify_email');
      const newer = await issue(user, 'verify_email');

      await expect(h.tokens.consume('verify_email', older, NOW)).resolves.toBe(user.id);
      await expect(h.tokens.consume('verify_email', newer, NOW)).resolves.toBe(user.id);
    });

    it('keeps every purpose apart: a token answers only its own, and revoking one purpose leaves the others', async () => {
      const purposes: TokenPurpose[] = ['verify_email', 'reset_password', 'email_link_sign_in'];
      for (const purpose of purposes) {
        const token = await issue(user, purpose);
        for (const wrong of purposes.filter((p) => p !== purpose)) await expect(h.tokens.consume(wrong, token, NOW)).resolves.toBeNull();
        await expect(h.tokens.consume(purpose, token, NOW)).resolves.toBe(user.id);
      }
      const kept = await issue(user, 'reset_password');
      const revoked = await issue(user, 'email_link_sign_in');
      await h.tokens.revokeAll(user.id, 'email_link_sign_in');
      await expect(h.tokens.consume('email_link_sign_in', revoked, NOW)).resolves.toBeNull();
      await expect(h.tokens.consume('reset_password', kept, NOW)).resolves.toBe(user.id);
    });

    it("revokes every unused token of the user for one purpose, and nothing else", async () => {
      const revoked = [await issue(user, 'reset_password'), await issue(user, 'reset_password')];
      const otherPurpose = await issue(user, 'verify_email');
      const otherUser = await issue(other, 'reset_password');

      await h.tokens.revokeAll(user.id, 'reset_password');
      await h.tokens.revokeAll(user.id, 'reset_password');

      for (const token of revoked) await expect(h.tokens.consume('reset_password', token, NOW)).resolves.toBeNull();
      await expect(h.tokens.consume('verify_email', otherPurpose, NOW)).resolves.toBe(user.id);
      await expect(h.tokens.consume('reset_password', otherUser, NOW)).resolves.toBe(other.id);
    });

    it('gives the user id to exactly one of many concurrent consumers', async () => {
      const token = await issue(user, 'reset_password');

      const results = await Promise.all(Array.from({ length: 10 }, () => h.tokens.consume('reset_password', token, NOW)));

      expect(results.filter((result) => result === user.id)).toHaveLength(1);
      expect(results.filter((result) => result === null)).toHaveLength(9);
    });

    it('is usable again when the transaction that consumed it rolls back', async () => {
      const token = await issue(user, 'reset_password');

      const transaction = h.unitOfWork.transaction(async () => {
        expect(await h.tokens.consume('reset_password', token, NOW)).toBe(user.id);
        throw new Error('password update failed');
      });

      await expect(transaction).rejects.toThrow('password update failed');
      await expect(h.tokens.consume('reset_password', token, NOW)).resolves.toBe(user.id);
    });
  });
}
