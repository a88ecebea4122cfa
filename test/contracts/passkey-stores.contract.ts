import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { User } from '../../core/accounts/user';
import type { NewPasskey, PasskeyRepository } from '../../core/passkeys/passkey-repository.port';
import type { PasskeyChallengeStore } from '../../core/passkeys/passkey-challenge-store.port';
import { aNewUser } from './user-repository.contract';

export interface PasskeyStoresHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  passkeys: PasskeyRepository;
  challenges: PasskeyChallengeStore;
  teardown(): Promise<void>;
}

const T0 = new Date('2026-11-21T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
let serial = 0;
const aNewPasskey = (userId: number, overrides: Partial<NewPasskey> = {}): NewPasskey => ({
  userId,
  name: 'Laptop',
  credentialId: `credential-${(serial += 1)}`,
  publicKey: 'pQECAyYgASFYIA',
  counter: 0,
  userHandle: 'aGFuZGxl',
  deviceType: 'multi_device',
  backedUp: true,
  transports: ['internal', 'hybrid'],
  createdAt: at(serial),
  ...overrides,
});

/** PasskeyRepository and PasskeyChallengeStore: one suite, run on every adapter. */
export function describePasskeyStoresContract(name: string, setup: () => Promise<PasskeyStoresHarness>): void {
  describe(`passkey stores contract (${name})`, () => {
    let h: PasskeyStoresHarness;
    let alice: User;
    let bob: User;

    beforeEach(async () => {
      h = await setup();
      const org = await h.organizations.create({ name: 'Acme' });
      alice = await h.users.create(aNewUser(org.id));
      bob = await h.users.create(aNewUser(org.id));
    });
    afterEach(() => h.teardown());

    it('creates a passkey, finds it by credential id and lists a user\'s oldest first', async () => {
      const first = await h.passkeys.create(aNewPasskey(alice.id));
      const second = await h.passkeys.create(aNewPasskey(alice.id));
      await h.passkeys.create(aNewPasskey(bob.id));

      expect(first).toEqual({ ...aNewPasskeyShape(first!), id: expect.any(Number), lastUsedAt: null });
      expect(await h.passkeys.findByCredentialId(first!.credentialId)).toEqual(first);
      expect(await h.passkeys.findByCredentialId('unknown')).toBeNull();
      expect((await h.passkeys.listForUser(alice.id)).map((p) => p.id)).toEqual([first!.id, second!.id]);
    });

    it('refuses a credential id already registered, to anyone', async () => {
      const first = await h.passkeys.create(aNewPasskey(alice.id));

      expect(await h.passkeys.create(aNewPasskey(bob.id, { credentialId: first!.credentialId }))).toBeNull();
      expect(await h.passkeys.listForUser(bob.id)).toEqual([]);
    });

    it("renames and deletes only the owner's passkey", async () => {
      const passkey = (await h.passkeys.create(aNewPasskey(alice.id)))!;

      expect(await h.passkeys.rename(bob.id, passkey.id, 'Mine')).toBeNull();
      expect(await h.passkeys.delete(bob.id, passkey.id)).toBe(false);
      expect(await h.passkeys.rename(alice.id, passkey.id, 'Phone')).toMatchObject({ id: passkey.id, name: 'Phone' });
      expect(await h.passkeys.delete(alice.id, passkey.id)).toBe(true);
      expect(await h.passkeys.delete(alice.id, passkey.id)).toBe(false);
    });

    it('records a use only while the counter is the expected one', async () => {
      const passkey = (await h.passkeys.create(aNewPasskey(alice.id, { counter: 4 })))!;

      expect(await h.passkeys.recordUse(passkey.id, { expectedCounter: 4, counter: 5, backedUp: false, at: at(100) })).toBe(true);
      expect(await h.passkeys.recordUse(passkey.id, { expectedCounter: 4, counter: 6, backedUp: false, at: at(200) })).toBe(false);
      expect(await h.passkeys.findByCredentialId(passkey.credentialId)).toMatchObject({ counter: 5, backedUp: false, lastUsedAt: at(100) });
    });

    it('takes a challenge once, by its binding; a new one replaces the old', async () => {
      const registration = { kind: 'registration', sessionId: 7 } as const;
      const login = { kind: 'login', cookieHash: 'a'.repeat(64) } as const;
      await h.challenges.put(registration, { challengeHash: 'b'.repeat(64), userId: alice.id, userHandle: 'aGFuZGxl', createdAt: at(0), expiresAt: at(300) });
      await h.challenges.put(registration, { challengeHash: 'c'.repeat(64), userId: alice.id, userHandle: 'aGFuZGxl', createdAt: at(1), expiresAt: at(301) });
      await h.challenges.put(login, { challengeHash: 'd'.repeat(64), userId: null, userHandle: null, createdAt: at(0), expiresAt: at(300) });

      expect(await h.challenges.take(registration)).toEqual({ challengeHash: 'c'.repeat(64), userId: alice.id, userHandle: 'aGFuZGxl', expiresAt: at(301) });
      expect(await h.challenges.take(registration)).toBeNull();
      const [one, two] = await Promise.all([h.challenges.take(login), h.challenges.take(login)]);
      expect([one, two].filter((taken) => taken !== null)).toEqual([{ challengeHash: 'd'.repeat(64), userId: null, userHandle: null, expiresAt: at(300) }]);
    });

    it('prunes challenges that expired before the cutoff, in batches', async () => {
      for (const index of [1, 2, 3]) {
        await h.challenges.put({ kind: 'login', cookieHash: String(index).repeat(64) }, { challengeHash: 'e'.repeat(64), userId: null, userHandle: null, createdAt: at(0), expiresAt: at(index) });
      }

      expect(await h.challenges.pruneExpiredBefore(at(3), 1)).toBe(1);
      expect(await h.challenges.pruneExpiredBefore(at(3), 10)).toBe(1);
      expect(await h.challenges.take({ kind: 'login', cookieHash: '3'.repeat(64) })).not.toBeNull();
    });
  });
}

const aNewPasskeyShape = ({ id: _id, lastUsedAt: _lastUsedAt, ...rest }: { id: number; lastUsedAt: Date | null } & NewPasskey) => rest;
