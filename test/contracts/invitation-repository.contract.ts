import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { InvitationRepository, NewInvitation } from '../../core/organizations/invitation-repository.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import { aNewUser, aTokenHash } from './user-repository.contract';
import { expectWindowsWalkTheList } from './list-window';
import type { RoleName } from '../../core/access/role';
import { invitingKeyVouches, inviterVouches } from '../../core/organizations/invitation';
import type { ApiKeyRepository } from '../../core/api-keys/api-key-repository.port';
import type { ApiKeyRole } from '../../core/api-keys/api-key';

export interface InvitationRepositoryHarness {
  invitations: InvitationRepository;
  organizations: OrganizationRepository;
  users: UserRepository;
  /** Where the keys that issue invitations live. */
  apiKeys: ApiKeyRepository;
  unitOfWork: UnitOfWork;
  /** No port deletes organizations; the harness does it the store's way, to check the cascade. */
  deleteOrganization(id: number): Promise<void>;
  teardown(): Promise<void>;
}

const T0 = new Date('2026-11-21T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const WEEK_MINUTES = 7 * 24 * 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sequence = 0;
const anEmail = () => `invitee-${(sequence += 1)}-${process.pid}@example.test`;

export function describeInvitationRepositoryContract(name: string, setup: () => Promise<InvitationRepositoryHarness>): void {
  describe(`InvitationRepository contract: ${name}`, () => {
    let h: InvitationRepositoryHarness;
    let orgId: number;
    let otherOrgId: number;
    let inviterId: number;
    let otherInviterId: number;

    const invite = (overrides: Partial<NewInvitation> = {}) =>
      h.invitations.create({
        organizationId: orgId,
        email: anEmail(),
        role: 'member',
        tokenHash: aTokenHash(),
        invitedByUserId: inviterId,
        invitedByApiKeyId: null,
        expiresAt: at(WEEK_MINUTES),
        createdAt: T0,
        ...overrides,
      });

    beforeEach(async () => {
      h = await setup();
      orgId = (await h.organizations.create({ name: 'Acme' })).id;
      otherOrgId = (await h.organizations.create({ name: 'Globex' })).id;
      inviterId = (await h.users.create(aNewUser(orgId, { role: 'org_admin' }))).id;
      otherInviterId = (await h.users.create(aNewUser(otherOrgId, { role: 'org_admin' }))).id;
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('creates a pending invitation and finds it by token hash', async () => {
      const input: NewInvitation = {
        organizationId: orgId,
        email: anEmail(),
        role: 'readonly',
        tokenHash: aTokenHash(),
        invitedByUserId: inviterId,
        invitedByApiKeyId: null,
        expiresAt: at(WEEK_MINUTES),
        createdAt: T0,
      };

      const created = await h.invitations.create(input);

      expect(created).toEqual({ ...input, id: expect.any(Number), acceptedAt: null, revokedAt: null });
      expect(await h.invitations.findPendingByTokenHash(input.tokenHash, at(1))).toEqual(created);
    });

    it('keeps a null inviter', async () => {
      const created = await invite({ invitedByUserId: null });

      expect(created.invitedByUserId).toBeNull();
    });

    it('rejects a token hash that is already stored', async () => {
      const first = await invite();

      await expect(invite({ tokenHash: first.tokenHash })).rejects.toThrow();
    });

    it('finds nothing for an unknown, expired, accepted or revoked token', async () => {
      const expired = await invite();
      const accepted = await invite();
      const revoked = await invite();
      await h.invitations.consume(accepted.tokenHash, at(1));
      await h.invitations.revoke(orgId, revoked.id, at(1));

      await expect(h.invitations.findPendingByTokenHash(aTokenHash(), at(1))).resolves.toBeNull();
      await expect(h.invitations.findPendingByTokenHash(expired.tokenHash, at(WEEK_MINUTES))).resolves.toBeNull();
      await expect(h.invitations.findPendingByTokenHash(accepted.tokenHash, at(2))).resolves.toBeNull();
      await expect(h.invitations.findPendingByTokenHash(revoked.tokenHash, at(2))).resolves.toBeNull();
    });

    it('consumes a pending invitation once, marking it accepted at `now`', async () => {
      const invitation = await invite();

      const consumed = await h.invitations.consume(invitation.tokenHash, at(5));

      expect(consumed).toEqual({ ...invitation, acceptedAt: at(5) });
      await expect(h.invitations.consume(invitation.tokenHash, at(6))).resolves.toBeNull();
    });

    it('does not consume an expired, revoked or unknown token', async () => {
      const expired = await invite({ expiresAt: at(10) });
      const revoked = await invite();
      await h.invitations.revoke(orgId, revoked.id, at(1));

      await expect(h.invitations.consume(expired.tokenHash, at(10))).resolves.toBeNull();
      await expect(h.invitations.consume(revoked.tokenHash, at(2))).resolves.toBeNull();
      await expect(h.invitations.consume(aTokenHash(), at(2))).resolves.toBeNull();
      await expect(h.invitations.consume(expired.tokenHash, at(9))).resolves.toMatchObject({ id: expired.id });
    });

    it('gives a token to exactly one of many concurrent consumers', async () => {
      const invitation = await invite();

      const results = await Promise.all(Array.from({ length: 5 }, () => h.invitations.consume(invitation.tokenHash, at(1))));

      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });

    it('rolls a consumption back with its transaction', async () => {
      const invitation = await invite();

      const failing = h.unitOfWork.transaction(async () => {
        await h.invitations.consume(invitation.tokenHash, at(1));
        throw new Error('rolled back');
      });

      await expect(failing).rejects.toThrow('rolled back');
      await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, at(2))).resolves.toMatchObject({ id: invitation.id });
    });

    it('replaces the pending invitation of the same email in the same organization', async () => {
      const email = anEmail();
      const first = await invite({ email });
      const elsewhere = await invite({ email, organizationId: otherOrgId, invitedByUserId: otherInviterId });

      const second = await invite({ email, role: 'org_admin', createdAt: at(3) });

      await expect(h.invitations.consume(first.tokenHash, at(4))).resolves.toBeNull();
      expect((await h.invitations.listAcceptable(orgId, at(4))).map((i) => i.id)).toEqual([second.id]);
      expect((await h.invitations.listAcceptable(otherOrgId, at(4))).map((i) => i.id)).toEqual([elsewhere.id]);
    });

    it('lists only the organization’s pending invitations whose inviter still vouches for them, as accepting requires', async () => {
      const user = async (role: RoleName, organizationId = orgId) => (await h.users.create(aNewUser(organizationId, { role }))).id;
      const removed = await user('org_admin');
      const suspended = await user('org_admin');
      const demoted = await user('org_admin');
      const member = await user('member');
      const sysAdmin = await user('sys_admin', otherOrgId);
      const cases = [
        { listed: true, invitation: await invite({ role: 'org_admin', createdAt: at(1) }) },
        { listed: true, invitation: await invite({ role: 'readonly', invitedByUserId: member, createdAt: at(2) }) },
        { listed: true, invitation: await invite({ role: 'org_admin', invitedByUserId: sysAdmin, createdAt: at(3) }) },
        { listed: false, invitation: await invite({ role: 'org_admin', invitedByUserId: member }) },
        { listed: false, invitation: await invite({ role: 'sys_admin' }) },
        { listed: false, invitation: await invite({ invitedByUserId: otherInviterId }) },
        { listed: false, invitation: await invite({ invitedByUserId: null }) },
        { listed: false, invitation: await invite({ invitedByUserId: removed }) },
        { listed: false, invitation: await invite({ invitedByUserId: suspended }) },
        { listed: false, invitation: await invite({ role: 'org_admin', invitedByUserId: demoted }) },
      ];
      await h.users.delete(orgId, removed);
      await h.users.setStatus(orgId, suspended, 'suspended');
      await h.users.updateRole(orgId, demoted, 'member');

      const listed = (await h.invitations.listAcceptable(orgId, at(4))).map((i) => i.id);
      expect(listed).toEqual(cases.filter((c) => c.listed).map((c) => c.invitation.id));
      // The same verdicts as the rule that accepting applies.
      for (const { listed: expected, invitation } of cases) {
        const inviter = invitation.invitedByUserId === null ? null : await h.users.findById(invitation.invitedByUserId);
        expect(inviterVouches(invitation, inviter)).toBe(expected);
      }
    });

    const aKey = async (role: ApiKeyRole, expiresAt: Date | null = null, organizationId = orgId) =>
      h.apiKeys.create({
        organizationId,
        name: `key ${(sequence += 1)}`,
        role,
        prefix: 'tk_abcdefg',
        keyHash: aTokenHash(),
        createdByUserId: organizationId === orgId ? inviterId : otherInviterId,
        createdAt: T0,
        expiresAt,
      });

    it('records an API key as the issuer, and lists its invitations only while the key is live and reaches their role', async () => {
      const live = await aKey('org_admin');
      const member = await aKey('member');
      const expiring = await aKey('org_admin', at(4));
      const revoked = await aKey('org_admin');
      const foreign = await aKey('org_admin', null, otherOrgId);
      const byKey = (keyId: number, role: RoleName, minute: number) => invite({ invitedByUserId: null, invitedByApiKeyId: keyId, role, createdAt: at(minute) });
      const cases = [
        { listed: true, invitation: await byKey(live.id, 'org_admin', 1) },
        { listed: true, invitation: await byKey(member.id, 'readonly', 2) },
        { listed: false, invitation: await byKey(member.id, 'org_admin', 3) },
        { listed: false, invitation: await byKey(live.id, 'sys_admin', 4) },
        { listed: false, invitation: await byKey(expiring.id, 'member', 5) },
        { listed: false, invitation: await byKey(revoked.id, 'member', 6) },
        { listed: false, invitation: await byKey(foreign.id, 'member', 7) },
      ];
      expect(cases[0]!.invitation).toMatchObject({ invitedByUserId: null, invitedByApiKeyId: live.id });
      // Revoking deletes the key; its invitations stay, no longer naming it.
      await h.apiKeys.revoke(orgId, revoked.id);
      await expect(h.invitations.findPendingByTokenHash(cases[5]!.invitation.tokenHash, at(8))).resolves.toMatchObject({ invitedByApiKeyId: null });

      const now = at(8);
      const listed = (await h.invitations.listAcceptable(orgId, now)).map((i) => i.id);
      expect(listed).toEqual(cases.filter((c) => c.listed).map((c) => c.invitation.id));
      // The same verdicts as the rule that accepting applies, on what the store gives back.
      for (const { listed: expected, invitation } of cases) {
        const stored = await h.invitations.findPendingByTokenHash(invitation.tokenHash, now);
        const key = stored?.invitedByApiKeyId == null ? null : await h.apiKeys.findById(stored.organizationId, stored.invitedByApiKeyId);
        expect(invitingKeyVouches(invitation, key, now)).toBe(expected);
      }
      // Before its expiry, the expiring key still vouched.
      expect((await h.invitations.listAcceptable(orgId, at(3))).map((i) => i.id)).toContain(cases[4]!.invitation.id);
    });

    it('refuses an invitation naming both a user and an API key as its issuer', async () => {
      const key = await aKey('org_admin');
      await expect(invite({ invitedByApiKeyId: key.id })).rejects.toThrow();
    });

    it('lists only the organization’s pending invitations, oldest first', async () => {
      const b = await invite({ createdAt: at(2) });
      const a = await invite({ createdAt: at(1) });
      const expired = await invite({ expiresAt: at(30) });
      const accepted = await invite();
      const revoked = await invite();
      await invite({ organizationId: otherOrgId, invitedByUserId: null });
      await h.invitations.consume(accepted.tokenHash, at(5));
      await h.invitations.revoke(orgId, revoked.id, at(5));

      expect((await h.invitations.listAcceptable(orgId, at(29))).map((i) => i.id)).toEqual([expired.id, a.id, b.id]);
      expect((await h.invitations.listAcceptable(orgId, at(30))).map((i) => i.id)).toEqual([a.id, b.id]);
    });

    it('pages the pending invitations, oldest first', async () => {
      for (let minute = 5; minute > 0; minute -= 1) await invite({ createdAt: at(minute) });
      await invite({ createdAt: at(3) }); // a tie on createdAt: the id orders it
      await expectWindowsWalkTheList((window) => h.invitations.listAcceptable(orgId, at(6), window), 2);
    });

    it('lists nothing for an organization without invitations', async () => {
      await expect(h.invitations.listAcceptable(otherOrgId, T0)).resolves.toEqual([]);
    });

    it('revokes a pending invitation of the organization only', async () => {
      const invitation = await invite();

      await expect(h.invitations.revoke(otherOrgId, invitation.id, at(1))).resolves.toBeNull();
      await expect(h.invitations.revoke(orgId, 987_654, at(1))).resolves.toBeNull();
      await expect(h.invitations.revoke(orgId, invitation.id, at(1))).resolves.toEqual({ ...invitation, revokedAt: at(1) });
      await expect(h.invitations.revoke(orgId, invitation.id, at(2))).resolves.toBeNull();
      await expect(h.invitations.consume(invitation.tokenHash, at(3))).resolves.toBeNull();
    });

    it('does not revoke an accepted or expired invitation', async () => {
      const accepted = await invite();
      const expired = await invite({ expiresAt: at(10) });
      await h.invitations.consume(accepted.tokenHash, at(1));

      await expect(h.invitations.revoke(orgId, accepted.id, at(2))).resolves.toBeNull();
      await expect(h.invitations.revoke(orgId, expired.id, at(10))).resolves.toBeNull();
    });

    it('lists the invitations pending for an email in every organization, newest first', async () => {
      const email = anEmail();
      const older = await invite({ email, createdAt: at(1) });
      const newest = await invite({ email, organizationId: otherOrgId, invitedByUserId: null, createdAt: at(2) });
      await invite({ email: anEmail() });

      await expect(h.invitations.listPendingByEmail(email, at(3))).resolves.toEqual([newest, older]);
      await h.invitations.revoke(otherOrgId, newest.id, at(3));
      await expect(h.invitations.listPendingByEmail(email, at(4))).resolves.toEqual([older]);
      await expect(h.invitations.listPendingByEmail(email, at(WEEK_MINUTES))).resolves.toEqual([]);
      await expect(h.invitations.listPendingByEmail(anEmail(), T0)).resolves.toEqual([]);
    });

    it('keeps an invitation when its inviter is deleted, without the inviter', async () => {
      const member = await h.users.create(aNewUser(orgId, { role: 'org_admin' }));
      const invitation = await invite({ invitedByUserId: member.id });

      await h.users.delete(orgId, member.id);

      await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, at(1))).resolves.toEqual({
        ...invitation,
        invitedByUserId: null,
      });
    });

    it('deletes the invitations of a deleted organization', async () => {
      const invitation = await invite({ organizationId: otherOrgId, invitedByUserId: null });

      await h.deleteOrganization(otherOrgId);

      await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, at(1))).resolves.toBeNull();
    });

    // Not the invitation port, but the other half of what membership changes rely on.
    it('makes transactions that lock one organization run one after the other', async () => {
      const trace: string[] = [];
      const step = (label: string) =>
        h.unitOfWork.transaction(async () => {
          await h.organizations.lock(orgId);
          trace.push(`${label}:start`);
          await sleep(30);
          trace.push(`${label}:end`);
        });

      await Promise.all([step('a'), step('b')]);

      // Either may win the lock; the other starts only after the winner ends.
      const [first, second] = trace[0]?.startsWith('a') ? ['a', 'b'] : ['b', 'a'];
      expect(trace).toEqual([`${first}:start`, `${first}:end`, `${second}:start`, `${second}:end`]);
    });
  });
}
