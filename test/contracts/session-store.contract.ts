import fc from 'fast-check';
import { assertOnFreshStores } from './fresh-runs';
import { expectWindowsWalkTheList } from './list-window';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { SessionPrincipal, SessionStore } from '../../core/accounts/session-store.port';
import type { User } from '../../core/accounts/user';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import { aNewUser, aTokenHash } from './user-repository.contract';

export interface SessionStoreHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  sessions: SessionStore;
  teardown(): Promise<void>;
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const HOUR_MS = 3_600_000;

export function describeSessionStoreContract(name: string, setup: () => Promise<SessionStoreHarness>): void {
  describe(`SessionStore contract: ${name}`, () => {
    let h: SessionStoreHarness;
    let user: User;
    let other: User;

    const open = async (owner: User, expiresAt: Date, tokenHash = aTokenHash()) => {
      const created = await h.sessions.create({ userId: owner.id, tokenHash, createdAt: at(-HOUR_MS), expiresAt, credentialsVersion: owner.credentialsVersion });
      return { id: created!.id, tokenHash };
    };
    const alive = async (tokenHash: string) => (await h.sessions.findByTokenHash(tokenHash)) !== null;

    beforeEach(async () => {
      h = await setup();
      const org = await h.organizations.create({ name: 'Acme' });
      user = await h.users.create(aNewUser(org.id, { role: 'org_admin' }));
      other = await h.users.create(aNewUser(org.id));
    });

    afterEach(async () => {
      await h.teardown();
    });

    it("creates a session and finds it by token hash with its user's and organization's state", async () => {
      const expiresAt = at(HOUR_MS + 123);
      const { id, tokenHash } = await open(user, expiresAt);

      expect(id).toEqual(expect.any(Number));
      expect(await h.sessions.findByTokenHash(tokenHash)).toEqual({
        sessionId: id,
        userId: user.id,
        organizationId: user.organizationId,
        role: 'org_admin',
        expiresAt,
        lastSeenAt: at(-HOUR_MS),
        userStatus: 'active',
        organizationStatus: 'active',
        organizationRequiresMfa: false,
        userHasMfa: false,
        credentialsVersion: 0,
        userCredentialsVersion: 0,
        viaPasskey: false,
      } satisfies SessionPrincipal);
    });

    it('records that a session was made by a passkey sign-in', async () => {
      const tokenHash = aTokenHash();
      await h.sessions.create({ userId: user.id, tokenHash, createdAt: at(-HOUR_MS), expiresAt: at(HOUR_MS), credentialsVersion: 0, viaPasskey: true });

      expect(await h.sessions.findByTokenHash(tokenHash)).toMatchObject({ userId: user.id, viaPasskey: true });
    });

    it('keeps where a session came from and lists the live ones newest first', async () => {
      const older = (await h.sessions.create({ userId: user.id, tokenHash: aTokenHash(), createdAt: at(-2 * HOUR_MS), expiresAt: at(HOUR_MS), userAgent: 'Firefox/140', ip: '2001:db8::1', credentialsVersion: 0 }))!;
      const newer = (await h.sessions.create({ userId: user.id, tokenHash: aTokenHash(), createdAt: at(-HOUR_MS), expiresAt: at(HOUR_MS), credentialsVersion: 0 }))!;
      await h.sessions.create({ userId: user.id, tokenHash: aTokenHash(), createdAt: at(-3 * HOUR_MS), expiresAt: at(0), credentialsVersion: 0 });
      await h.sessions.create({ userId: other.id, tokenHash: aTokenHash(), createdAt: at(-HOUR_MS), expiresAt: at(HOUR_MS), credentialsVersion: 0 });

      expect(await h.sessions.listLiveForUser(user.id, at(0))).toEqual([
        { id: newer.id, createdAt: at(-HOUR_MS), lastSeenAt: at(-HOUR_MS), expiresAt: at(HOUR_MS), userAgent: null, ip: null },
        { id: older.id, createdAt: at(-2 * HOUR_MS), lastSeenAt: at(-2 * HOUR_MS), expiresAt: at(HOUR_MS), userAgent: 'Firefox/140', ip: '2001:db8::1' },
      ]);
    });

    it('pages the live sessions newest first, ties by id, without skipping or repeating', async () => {
      for (const offset of [-3, -2, -2, -2, -1]) {
        await h.sessions.create({ userId: user.id, tokenHash: aTokenHash(), createdAt: at(offset * HOUR_MS), expiresAt: at(HOUR_MS), credentialsVersion: 0 });
      }
      await expectWindowsWalkTheList((window) => h.sessions.listLiveForUser(user.id, at(0), window), 2, 'newest-first');
    });

    it('records activity only over a stale lastSeenAt, once for concurrent writers', async () => {
      const { id, tokenHash } = await open(user, at(HOUR_MS));
      const staleBefore = at(-HOUR_MS + 1);
      const writes = await Promise.all([0, 1, 2].map(() => h.sessions.recordActivity(id, at(0), staleBefore)));
      expect(writes.filter(Boolean)).toHaveLength(1);
      expect((await h.sessions.findByTokenHash(tokenHash))?.lastSeenAt).toEqual(at(0));
      await expect(h.sessions.recordActivity(id, at(1_000), at(0))).resolves.toBe(false);
      await expect(h.sessions.recordActivity(987_654, at(0), at(1))).resolves.toBe(false);
    });

    it("revokes an owned session, and refuses another user's", async () => {
      const mine = await open(user, at(HOUR_MS));
      const theirs = await open(other, at(HOUR_MS));
      await expect(h.sessions.revokeOwned(user.id, theirs.id)).resolves.toBe(false);
      expect(await alive(theirs.tokenHash)).toBe(true);
      await expect(h.sessions.revokeOwned(user.id, mine.id)).resolves.toBe(true);
      await expect(h.sessions.revokeOwned(user.id, mine.id)).resolves.toBe(false);
      expect(await alive(mine.tokenHash)).toBe(false);
    });

    it("creates nothing for a user whose credentials moved on, or who is gone, and reports both versions", async () => {
      const { tokenHash } = await open(user, at(HOUR_MS));
      const version = await h.users.setPasswordHash(user.id, `$2b$04$${'y'.repeat(53)}`);
      expect(version).toBe(1);

      const stale = aTokenHash();
      await expect(h.sessions.create({ userId: user.id, tokenHash: stale, createdAt: at(0), expiresAt: at(HOUR_MS), credentialsVersion: 0 })).resolves.toBeNull();
      await expect(h.sessions.findByTokenHash(stale)).resolves.toBeNull();
      expect(await h.sessions.findByTokenHash(tokenHash)).toMatchObject({ credentialsVersion: 0, userCredentialsVersion: 1 });

      const fresh = aTokenHash();
      await expect(h.sessions.create({ userId: user.id, tokenHash: fresh, createdAt: at(0), expiresAt: at(HOUR_MS), credentialsVersion: 1 })).resolves.toEqual({ id: expect.any(Number) });
      await expect(h.sessions.create({ userId: 2_000_000_000, tokenHash: aTokenHash(), createdAt: at(0), expiresAt: at(HOUR_MS), credentialsVersion: 0 })).resolves.toBeNull();
    });

    it('renews a session to a credentials version, idempotently', async () => {
      const { id, tokenHash } = await open(user, at(HOUR_MS));
      await h.users.setPasswordHash(user.id, null);
      await h.sessions.renewCredentials(id, 1);
      await h.sessions.renewCredentials(id, 1);
      await h.sessions.renewCredentials(987_654, 1);
      expect(await h.sessions.findByTokenHash(tokenHash)).toMatchObject({ credentialsVersion: 1, userCredentialsVersion: 1 });
    });

    it('reads the current role and organization status, not those at login', async () => {
      const { tokenHash } = await open(user, at(HOUR_MS));

      await h.users.updateRole(user.organizationId, user.id, 'readonly');
      await h.organizations.setStatus(user.organizationId, 'suspended');

      expect(await h.sessions.findByTokenHash(tokenHash)).toMatchObject({ role: 'readonly', organizationStatus: 'suspended' });
    });

    it("reads the organization's MFA requirement as it is now", async () => {
      const { tokenHash } = await open(user, at(HOUR_MS));
      await h.organizations.updateSettings(user.organizationId, { requireMfa: true });

      expect(await h.sessions.findByTokenHash(tokenHash)).toMatchObject({ organizationRequiresMfa: true, userHasMfa: false, viaPasskey: false });
    });

    it('answers null for an unknown token hash', async () => {
      await expect(h.sessions.findByTokenHash(aTokenHash())).resolves.toBeNull();
    });

    it('returns expired sessions too, leaving the comparison to the caller', async () => {
      const expiresAt = at(-1);
      const { tokenHash } = await open(user, expiresAt);

      expect(await h.sessions.findByTokenHash(tokenHash)).toMatchObject({ expiresAt });
    });

    it('revokes a session, idempotently, and only that one', async () => {
      const first = await open(user, at(HOUR_MS));
      const second = await open(user, at(HOUR_MS));

      await h.sessions.revoke(first.id);
      await h.sessions.revoke(first.id);
      await h.sessions.revoke(987_654);

      expect(await alive(first.tokenHash)).toBe(false);
      expect(await alive(second.tokenHash)).toBe(true);
    });

    it("revokes all of a user's sessions, returns how many, and leaves other users' alone", async () => {
      const mine = [await open(user, at(HOUR_MS)), await open(user, at(-HOUR_MS)), await open(user, at(2 * HOUR_MS))];
      const theirs = await open(other, at(HOUR_MS));

      await expect(h.sessions.revokeAllForUser(user.id)).resolves.toBe(3);

      for (const session of mine) expect(await alive(session.tokenHash)).toBe(false);
      expect(await alive(theirs.tokenHash)).toBe(true);
      await expect(h.sessions.revokeAllForUser(user.id)).resolves.toBe(0);
    });

    it('keeps the excepted session when revoking all the others', async () => {
      const current = await open(user, at(HOUR_MS));
      const others = [await open(user, at(HOUR_MS)), await open(user, at(HOUR_MS))];

      await expect(h.sessions.revokeAllForUser(user.id, current.id)).resolves.toBe(2);

      expect(await alive(current.tokenHash)).toBe(true);
      for (const session of others) expect(await alive(session.tokenHash)).toBe(false);
      await expect(h.sessions.revokeAllForUser(user.id, current.id)).resolves.toBe(0);
    });

    it('prunes sessions expiring before the cutoff, to the millisecond', async () => {
      const cutoff = at(0);
      const before = await open(user, at(-1));
      const exactly = await open(user, cutoff);
      const after = await open(other, at(1));

      await expect(h.sessions.pruneExpiredBefore(cutoff, 100)).resolves.toBe(1);

      expect(await alive(before.tokenHash)).toBe(false);
      expect(await alive(exactly.tokenHash)).toBe(true);
      expect(await alive(after.tokenHash)).toBe(true);
    });

    it('prunes at most batchSize sessions per call, until fewer than batchSize remain', async () => {
      const expired = [];
      for (let i = 0; i < 5; i += 1) expired.push(await open(i % 2 ? user : other, at(-HOUR_MS - i)));
      const valid = await open(user, at(HOUR_MS));

      await expect(h.sessions.pruneExpiredBefore(at(0), 2)).resolves.toBe(2);
      await expect(h.sessions.pruneExpiredBefore(at(0), 2)).resolves.toBe(2);
      await expect(h.sessions.pruneExpiredBefore(at(0), 2)).resolves.toBe(1);
      await expect(h.sessions.pruneExpiredBefore(at(0), 2)).resolves.toBe(0);

      for (const session of expired) expect(await alive(session.tokenHash)).toBe(false);
      expect(await alive(valid.tokenHash)).toBe(true);
    });

    it('behaves like a plain model under random sequences of operations', async () => {
      await assertOnFreshStores(setup, fc.array(sessionCommand, { maxLength: 25 }), checkAgainstModel);
    });
  });
}

type SessionCommand =
  | { kind: 'create'; owner: number; expiresInSeconds: number }
  | { kind: 'revoke'; pick: number }
  | { kind: 'revokeAll'; owner: number; exceptPick: number | null }
  | { kind: 'prune'; cutoffInSeconds: number; batchSize: number }
  | { kind: 'find'; pick: number };

// Whole seconds in a narrow range, so expiries often tie with each other and with the cutoff.
const seconds = fc.integer({ min: -3, max: 3 });
const sessionCommand: fc.Arbitrary<SessionCommand> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), owner: fc.nat(1), expiresInSeconds: seconds }),
  fc.record({ kind: fc.constant('revoke' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('revokeAll' as const), owner: fc.nat(1), exceptPick: fc.option(fc.nat()) }),
  fc.record({ kind: fc.constant('prune' as const), cutoffInSeconds: seconds, batchSize: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('find' as const), pick: fc.nat() }),
);

interface ModelSession {
  id: number;
  tokenHash: string;
  owner: User;
  expiresAt: Date;
  alive: boolean;
}

/** Runs `commands` on a fresh store and on a list of sessions, comparing every answer. */
async function checkAgainstModel(h: SessionStoreHarness, commands: SessionCommand[]): Promise<void> {
  const org = await h.organizations.create({ name: 'Model' });
  const owners = [await h.users.create(aNewUser(org.id)), await h.users.create(aNewUser(org.id, { role: 'org_admin' }))];
  const model: ModelSession[] = [];
  const pick = (index: number) => model[index % Math.max(1, model.length)];
  const expectFound = async (session: ModelSession) => {
    const found = await h.sessions.findByTokenHash(session.tokenHash);
    expect(found).toEqual(
      session.alive
        ? {
            sessionId: session.id,
            userId: session.owner.id,
            organizationId: org.id,
            role: session.owner.role,
            expiresAt: session.expiresAt,
            lastSeenAt: at(-HOUR_MS),
            userStatus: 'active',
            organizationStatus: 'active',
            organizationRequiresMfa: false,
            userHasMfa: false,
            credentialsVersion: 0,
            userCredentialsVersion: 0,
            viaPasskey: false,
          }
        : null,
    );
    return found;
  };

  for (const command of commands) {
    switch (command.kind) {
      case 'create': {
        const owner = owners[command.owner]!;
        const tokenHash = aTokenHash();
        const expiresAt = at(command.expiresInSeconds * 1000);
        const { id } = (await h.sessions.create({ userId: owner.id, tokenHash, createdAt: at(-HOUR_MS), expiresAt, credentialsVersion: owner.credentialsVersion }))!;
        expect(model.some((s) => s.id === id)).toBe(false);
        model.push({ id, tokenHash, owner, expiresAt, alive: true });
        break;
      }
      case 'revoke': {
        const target = pick(command.pick);
        await h.sessions.revoke(target?.id ?? 987_654);
        if (target) target.alive = false;
        break;
      }
      case 'revokeAll': {
        const owner = owners[command.owner]!;
        const except = command.exceptPick === null ? undefined : pick(command.exceptPick)?.id;
        const revoked = model.filter((s) => s.alive && s.owner.id === owner.id && s.id !== except);
        await expect(h.sessions.revokeAllForUser(owner.id, except)).resolves.toBe(revoked.length);
        for (const session of revoked) session.alive = false;
        break;
      }
      case 'prune': {
        const cutoff = at(command.cutoffInSeconds * 1000);
        const expired = model.filter((s) => s.alive && s.expiresAt.getTime() < cutoff.getTime());
        const pruned = await h.sessions.pruneExpiredBefore(cutoff, command.batchSize);
        expect(pruned).toBe(Math.min(command.batchSize, expired.length));
        // The port does not say which expired sessions go first: learn it from the store.
        let gone = 0;
        for (const session of expired) {
          if ((await h.sessions.findByTokenHash(session.tokenHash)) === null) {
            session.alive = false;
            gone += 1;
          }
        }
        expect(gone).toBe(pruned);
        break;
      }
      case 'find': {
        const target = pick(command.pick);
        if (target) await expectFound(target);
        else await expect(h.sessions.findByTokenHash(aTokenHash())).resolves.toBeNull();
        break;
      }
    }
  }
  for (const session of model) await expectFound(session);
}
