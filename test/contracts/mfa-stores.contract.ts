import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { User } from '../../core/accounts/user';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { MfaChallengeStore } from '../../core/mfa/mfa-challenge-store.port';
import type { MfaRepository } from '../../core/mfa/mfa-repository.port';
import { aNewUser, aTokenHash } from './user-repository.contract';

export interface MfaStoresHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  mfa: MfaRepository;
  challenges: MfaChallengeStore;
  teardown(): Promise<void>;
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const MINUTE = 60_000;

/** MfaRepository and MfaChallengeStore: what every adapter must do, on the same facts. */
export function describeMfaStoresContract(name: string, setup: () => Promise<MfaStoresHarness>): void {
  describe(`MfaRepository contract: ${name}`, () => {
    let h: MfaStoresHarness;
    let user: User;
    let other: User;
    const hashes = (n: number) => Array.from({ length: n }, () => aTokenHash());

    beforeEach(async () => {
      h = await setup();
      const org = await h.organizations.create({ name: 'Acme' });
      user = await h.users.create(aNewUser(org.id));
      other = await h.users.create(aNewUser(org.id));
    });
    afterEach(() => h.teardown());

    it('has no factor until one is saved, then an unconfirmed one, replaced by the next save', async () => {
      await expect(h.mfa.findTotp(user.id)).resolves.toBeNull();
      await expect(h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.first', createdAt: at(0) })).resolves.toBe(true);
      await expect(h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.second', createdAt: at(MINUTE) })).resolves.toBe(true);
      await expect(h.mfa.findTotp(user.id)).resolves.toEqual({
        userId: user.id,
        sealedSecret: 'v1.second',
        confirmedAt: null,
        lastUsedStep: null,
        createdAt: at(MINUTE),
      });
      await expect(h.mfa.findTotp(other.id)).resolves.toBeNull();
    });

    it('confirms once, with its step and recovery codes, and then refuses to be replaced', async () => {
      await h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.s', createdAt: at(0) });
      const codes = hashes(10);
      await expect(h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(MINUTE), step: 1000, recoveryCodeHashes: codes })).resolves.toBe(true);
      await expect(h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(2 * MINUTE), step: 1001, recoveryCodeHashes: hashes(10) })).resolves.toBe(false);
      await expect(h.mfa.confirmTotp({ userId: other.id, confirmedAt: at(MINUTE), step: 1, recoveryCodeHashes: [] })).resolves.toBe(false);
      await expect(h.mfa.findTotp(user.id)).resolves.toMatchObject({ confirmedAt: at(MINUTE), lastUsedStep: 1000 });
      await expect(h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.evil', createdAt: at(0) })).resolves.toBe(false);
      await expect(h.mfa.findTotp(user.id)).resolves.toMatchObject({ sealedSecret: 'v1.s' });
      await expect(h.mfa.countUnusedRecoveryCodes(user.id)).resolves.toBe(10);
    });

    it('records only newer steps, and of concurrent equal steps exactly one', async () => {
      await expect(h.mfa.useTotpStep(user.id, 5)).resolves.toBe(false); // no factor
      await h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.s', createdAt: at(0) });
      await expect(h.mfa.useTotpStep(user.id, 5)).resolves.toBe(false); // not confirmed
      await h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(0), step: 100, recoveryCodeHashes: [] });
      await expect(h.mfa.useTotpStep(user.id, 100)).resolves.toBe(false);
      await expect(h.mfa.useTotpStep(user.id, 99)).resolves.toBe(false);
      const results = await Promise.all([0, 1, 2, 3].map(() => h.mfa.useTotpStep(user.id, 101)));
      expect(results.filter(Boolean)).toHaveLength(1);
      await expect(h.mfa.findTotp(user.id)).resolves.toMatchObject({ lastUsedStep: 101 });
    });

    it('uses each recovery code once, only its owner, even concurrently', async () => {
      await h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.s', createdAt: at(0) });
      const codes = hashes(3);
      await h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(0), step: 1, recoveryCodeHashes: codes });
      await expect(h.mfa.useRecoveryCode(other.id, codes[0]!, at(MINUTE))).resolves.toBe(false);
      const results = await Promise.all([0, 1, 2].map(() => h.mfa.useRecoveryCode(user.id, codes[0]!, at(MINUTE))));
      expect(results.filter(Boolean)).toHaveLength(1);
      await expect(h.mfa.useRecoveryCode(user.id, aTokenHash(), at(MINUTE))).resolves.toBe(false);
      await expect(h.mfa.countUnusedRecoveryCodes(user.id)).resolves.toBe(2);
    });

    it('removes the factor and the codes, idempotently, and a confirmation replaces old codes', async () => {
      await h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.s', createdAt: at(0) });
      const old = hashes(2);
      await h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(0), step: 1, recoveryCodeHashes: old });
      await h.mfa.removeAll(user.id);
      await h.mfa.removeAll(user.id);
      await expect(h.mfa.findTotp(user.id)).resolves.toBeNull();
      await expect(h.mfa.countUnusedRecoveryCodes(user.id)).resolves.toBe(0);
      await h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.t', createdAt: at(0) });
      await h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(0), step: 2, recoveryCodeHashes: hashes(1) });
      await expect(h.mfa.useRecoveryCode(user.id, old[0]!, at(0))).resolves.toBe(false);
    });

    it('goes with the user', async () => {
      await h.mfa.saveUnconfirmedTotp({ userId: user.id, sealedSecret: 'v1.s', createdAt: at(0) });
      await h.mfa.confirmTotp({ userId: user.id, confirmedAt: at(0), step: 1, recoveryCodeHashes: hashes(2) });
      await h.users.delete(user.organizationId, user.id);
      await expect(h.mfa.findTotp(user.id)).resolves.toBeNull();
      await expect(h.mfa.countUnusedRecoveryCodes(user.id)).resolves.toBe(0);
    });
  });

  describe(`MfaChallengeStore contract: ${name}`, () => {
    let h: MfaStoresHarness;
    let user: User;

    beforeEach(async () => {
      h = await setup();
      const org = await h.organizations.create({ name: 'Acme' });
      user = await h.users.create(aNewUser(org.id));
    });
    afterEach(() => h.teardown());

    it('counts attempts up to the maximum, then answers null', async () => {
      const tokenHash = aTokenHash();
      await h.challenges.create({ userId: user.id, tokenHash, createdAt: at(0), expiresAt: at(5 * MINUTE) });
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await expect(h.challenges.takeAttempt(tokenHash, at(MINUTE), 5)).resolves.toEqual({
          id: expect.any(Number),
          userId: user.id,
          expiresAt: at(5 * MINUTE),
          attempts: attempt,
        });
      }
      await expect(h.challenges.takeAttempt(tokenHash, at(MINUTE), 5)).resolves.toBeNull();
    });

    it('never hands out more than the maximum to concurrent takers', async () => {
      const tokenHash = aTokenHash();
      await h.challenges.create({ userId: user.id, tokenHash, createdAt: at(0), expiresAt: at(5 * MINUTE) });
      const taken = await Promise.all(Array.from({ length: 12 }, () => h.challenges.takeAttempt(tokenHash, at(0), 5)));
      expect(taken.filter((c) => c !== null).map((c) => c!.attempts).sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('answers null for an unknown hash and at or after expiry', async () => {
      const tokenHash = aTokenHash();
      await h.challenges.create({ userId: user.id, tokenHash, createdAt: at(0), expiresAt: at(5 * MINUTE) });
      await expect(h.challenges.takeAttempt(aTokenHash(), at(0), 5)).resolves.toBeNull();
      await expect(h.challenges.takeAttempt(tokenHash, at(5 * MINUTE), 5)).resolves.toBeNull();
      await expect(h.challenges.takeAttempt(tokenHash, at(5 * MINUTE - 1), 5)).resolves.not.toBeNull();
    });

    it('is consumed once', async () => {
      const tokenHash = aTokenHash();
      await h.challenges.create({ userId: user.id, tokenHash, createdAt: at(0), expiresAt: at(5 * MINUTE) });
      const challenge = (await h.challenges.takeAttempt(tokenHash, at(0), 5))!;
      const consumed = await Promise.all([0, 1, 2].map(() => h.challenges.consume(challenge.id)));
      expect(consumed.filter(Boolean)).toHaveLength(1);
      await expect(h.challenges.takeAttempt(tokenHash, at(0), 5)).resolves.toBeNull();
    });

    it('prunes expired challenges in batches, and goes with the user', async () => {
      for (let i = 0; i < 3; i += 1) {
        await h.challenges.create({ userId: user.id, tokenHash: aTokenHash(), createdAt: at(0), expiresAt: at(i * MINUTE) });
      }
      const live = aTokenHash();
      await h.challenges.create({ userId: user.id, tokenHash: live, createdAt: at(0), expiresAt: at(10 * MINUTE) });
      await expect(h.challenges.pruneExpiredBefore(at(5 * MINUTE), 2)).resolves.toBe(2);
      await expect(h.challenges.pruneExpiredBefore(at(5 * MINUTE), 2)).resolves.toBe(1);
      await expect(h.challenges.takeAttempt(live, at(0), 5)).resolves.not.toBeNull();
      await h.users.delete(user.organizationId, user.id);
      await expect(h.challenges.takeAttempt(live, at(0), 5)).resolves.toBeNull();
    });
  });
}
