import { describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../../test/builders/accounts';
import { organizationsHarness } from '../../test/builders/organizations';
import { NO_ORIGIN } from '../audit/audit-actor';
import { AcceptInvitation } from './accept-invitation.use-case';
import { ActivateMember } from './activate-member.use-case';
import { ActivateOrganization } from './activate-organization.use-case';
import { ChangeMemberRole } from './change-member-role.use-case';
import { CreateInvitation } from './create-invitation.use-case';
import { CreateOrganization } from './create-organization.use-case';
import { IdpPendingInvitations } from './idp-pending-invitations';
import { RemoveMember } from './remove-member.use-case';
import { RevokeInvitation } from './revoke-invitation.use-case';
import { SuspendMember } from './suspend-member.use-case';
import { SuspendOrganization } from './suspend-organization.use-case';
import { UpdateOrganizationSettings } from './update-organization-settings.use-case';

const ORIGIN = { ip: '198.51.100.9', userAgent: 'Firefox/141' };

/** An organization's log without the sign-ins the test's callers made. */
const changesIn = async (h: ReturnType<typeof organizationsHarness>, organizationId: number) =>
  (await h.auditLog.recorded(organizationId)).filter((event) => event.action !== 'login.succeeded');

async function world() {
  const h = organizationsHarness();
  const { organizationId, users } = await h.anOrganization(['org_admin', 'member']);
  const admin = await h.loginAs(users[0]!);
  const member = users[1]!;
  const since = async () => (await h.auditLog.recorded()).length;
  // After the admin's own sign-in.
  const start = await since();
  const newEvents = async (from = start) => (await h.auditLog.recorded()).slice(from);
  return { h, organizationId, admin, member, since, newEvents };
}

describe('audit events of invitations', () => {
  it('invitation.created names the inviter, the invitation, the address and the role, never the token', async () => {
    const { h, organizationId, admin, newEvents } = await world();
    const invitation = await new CreateInvitation(h.orgDeps).execute(admin, { email: 'Newcomer@Example.com', role: 'member' });
    const token = await h.invitationToken('newcomer@example.com');

    const events = await newEvents();
    expect(events).toEqual([
      {
        id: expect.any(Number),
        organizationId,
        occurredAt: h.clock.now(),
        action: 'invitation.created',
        actor: { type: 'user', id: admin.userId, email: expect.stringContaining('@example.com'), name: null },
        target: { type: 'invitation', id: String(invitation.id) },
        origin: TEST_ORIGIN,
        details: { email: 'newcomer@example.com', role: 'member' },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('invitation.created by an API key names the key as its actor, and member.joined names the key as the inviter', async () => {
    const { h, organizationId, newEvents } = await world();
    const admin = (await h.ports.users.listByOrganization(organizationId)).find((user) => user.role === 'org_admin');
    const key = await h.keyCaller(admin!, 'org_admin');
    const invitation = await new CreateInvitation(h.orgDeps).execute(key, { email: 'by-key@example.com', role: 'member' });
    const { userId } = await new AcceptInvitation(h.orgDeps).execute({ token: await h.invitationToken('by-key@example.com'), password: 'a good password', origin: ORIGIN });

    expect(await newEvents()).toMatchObject([
      { action: 'invitation.created', actor: { type: 'api_key', id: key.apiKeyId }, target: { type: 'invitation', id: String(invitation.id) }, details: { email: 'by-key@example.com', role: 'member' } },
      { action: 'member.joined', actor: { id: userId }, details: { invitation_id: invitation.id, invited_by: null, invited_by_api_key: key.apiKeyId } },
    ]);
  });

  it('inviting an address again names the pending invitation the new one replaces', async () => {
    const { h, admin, since, newEvents } = await world();
    const first = await new CreateInvitation(h.orgDeps).execute(admin, { email: 'again@example.com', role: 'member' });
    const from = await since();
    await new CreateInvitation(h.orgDeps).execute(admin, { email: 'again@example.com', role: 'org_admin' });
    expect(await newEvents(from)).toMatchObject([{ action: 'invitation.created', details: { email: 'again@example.com', role: 'org_admin', replaces_invitation_id: first.id } }]);
  });

  it("a sys_admin's new organization gets the invitation of its first admin in its own log", async () => {
    const h = organizationsHarness();
    const { users } = await h.anOrganization(['sys_admin']);
    const root = await h.loginAs(users[0]!);
    const { organization, invitation } = await new CreateOrganization(h.orgDeps).execute(root, { name: 'Initech', adminEmail: 'boss@initech.test' });

    expect(await changesIn(h, root.organizationId)).toEqual([]);
    expect(await changesIn(h, organization.id)).toMatchObject([
      { action: 'invitation.created', actor: { type: 'user', id: root.userId }, target: { type: 'invitation', id: String(invitation.id) }, details: { email: 'boss@initech.test', role: 'org_admin' } },
    ]);
  });

  it('invitation.revoked names what was revoked; revoking what is not pending records nothing', async () => {
    const { h, admin, since, newEvents } = await world();
    const invitation = await new CreateInvitation(h.orgDeps).execute(admin, { email: 'late@example.com', role: 'readonly' });
    const from = await since();
    const revoke = new RevokeInvitation(h.orgDeps);
    await revoke.execute(admin, { invitationId: invitation.id });
    await expect(revoke.execute(admin, { invitationId: invitation.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });

    expect(await newEvents(from)).toMatchObject([
      { action: 'invitation.revoked', actor: { id: admin.userId }, target: { type: 'invitation', id: String(invitation.id) }, origin: TEST_ORIGIN, details: { email: 'late@example.com', role: 'readonly' } },
    ]);
  });

  it('member.joined is acted by the new member, from the origin of the accept request, naming how they proved the address', async () => {
    const { h, organizationId, admin, since, newEvents } = await world();
    const invitation = await new CreateInvitation(h.orgDeps).execute(admin, { email: 'joiner@example.com', role: 'member' });
    const token = await h.invitationToken('joiner@example.com');
    const from = await since();
    const { userId } = await new AcceptInvitation(h.orgDeps).execute({ token, password: 'a good password', firstName: 'Grace', lastName: 'Hopper', origin: ORIGIN });

    const events = await newEvents(from);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        organizationId,
        occurredAt: h.clock.now(),
        action: 'member.joined',
        actor: { type: 'user', id: userId, email: 'joiner@example.com', name: 'Grace Hopper' },
        target: { type: 'user', id: String(userId) },
        origin: ORIGIN,
        details: { role: 'member', invitation_id: invitation.id, invited_by: admin.userId, via: 'invitation_link' },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('a good password');
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('a refused accept (the address has an account by now) records nothing and leaves the invitation pending', async () => {
    const { h, admin, since, newEvents } = await world();
    await new CreateInvitation(h.orgDeps).execute(admin, { email: 'twice@example.com', role: 'member' });
    const token = await h.invitationToken('twice@example.com');
    await h.aUser({ email: 'twice@example.com' });
    const from = await since();
    await expect(new AcceptInvitation(h.orgDeps).execute({ token, password: 'a good password' })).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    expect(await newEvents(from)).toEqual([]);
  });

  it('joining through the identity provider records member.joined with the sign-in’s origin', async () => {
    const { h, admin, since, newEvents } = await world();
    const invitation = await new CreateInvitation(h.orgDeps).execute(admin, { email: 'idp@example.com', role: 'readonly' });
    const from = await since();
    const joined = await new IdpPendingInvitations(h.orgDeps).acceptFor('idp@example.com', { firstName: null, lastName: null }, invitation.tokenHash, ORIGIN);

    expect(await newEvents(from)).toMatchObject([
      { action: 'member.joined', actor: { id: joined!.userId }, origin: ORIGIN, details: { role: 'readonly', via: 'identity_provider', invitation_id: invitation.id } },
    ]);
  });
});

describe('audit events of members', () => {
  it('member.role_changed says from and to; setting the role a member has records nothing', async () => {
    const { h, admin, member, newEvents } = await world();
    const change = new ChangeMemberRole(h.orgDeps);
    await change.execute(admin, { userId: member.id, role: 'readonly' });
    await change.execute(admin, { userId: member.id, role: 'readonly' });

    expect(await newEvents()).toMatchObject([
      { action: 'member.role_changed', actor: { id: admin.userId }, target: { type: 'user', id: String(member.id) }, origin: TEST_ORIGIN, details: { from: 'member', to: 'readonly' } },
    ]);
  });

  it('a refused role change (the last administrator) records nothing', async () => {
    const { h, admin, newEvents } = await world();
    await expect(new ChangeMemberRole(h.orgDeps).execute(admin, { userId: admin.userId, role: 'member' })).rejects.toMatchObject({ code: 'LAST_ORG_ADMIN' });
    expect(await newEvents()).toEqual([]);
  });

  it('member.removed keeps the address and role of the member, whose row is gone', async () => {
    const { h, admin, member, newEvents } = await world();
    await new RemoveMember(h.orgDeps).execute(admin, { userId: member.id });

    expect(await newEvents()).toMatchObject([
      { action: 'member.removed', actor: { id: admin.userId }, target: { type: 'user', id: String(member.id) }, details: { email: member.email, role: 'member' } },
    ]);
  });

  it('member.suspended and member.activated say from and to; repeating either records nothing', async () => {
    const { h, admin, member, newEvents } = await world();
    const suspend = new SuspendMember(h.orgDeps);
    const activate = new ActivateMember(h.orgDeps);
    await suspend.execute(admin, { userId: member.id });
    await suspend.execute(admin, { userId: member.id });
    await activate.execute(admin, { userId: member.id });
    await activate.execute(admin, { userId: member.id });

    expect((await newEvents()).map((event) => [event.action, event.target, event.details])).toEqual([
      ['member.suspended', { type: 'user', id: String(member.id) }, { from: 'active', to: 'suspended' }],
      ['member.activated', { type: 'user', id: String(member.id) }, { from: 'suspended', to: 'active' }],
    ]);
  });
});

describe('audit events of the organization', () => {
  it('organization.settings_changed holds the settings that changed, from and to; a write of the same values records nothing', async () => {
    const { h, organizationId, admin, newEvents } = await world();
    const update = new UpdateOrganizationSettings(h.orgDeps);
    await update.execute(admin, { requireMfa: true, overageEnabled: false });
    await update.execute(admin, { requireMfa: true });

    expect(await newEvents()).toMatchObject([
      {
        action: 'organization.settings_changed',
        actor: { id: admin.userId },
        target: { type: 'organization', id: String(organizationId) },
        origin: TEST_ORIGIN,
        details: { from: { require_mfa: false }, to: { require_mfa: true } },
      },
    ]);
  });

  it('a refused settings change (overage without a subscription) records nothing', async () => {
    const { h, admin, newEvents } = await world();
    await expect(new UpdateOrganizationSettings(h.orgDeps).execute(admin, { overageEnabled: true })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await newEvents()).toEqual([]);
  });

  it("a sys_admin's suspension and activation go in the organization's own log, once each", async () => {
    const h = organizationsHarness();
    const { users } = await h.anOrganization(['sys_admin']);
    const root = await h.loginAs(users[0]!);
    const { organizationId } = await h.anOrganization(['org_admin']);
    const suspend = new SuspendOrganization(h.orgDeps);
    const activate = new ActivateOrganization(h.orgDeps);
    await suspend.execute(root, { organizationId });
    await suspend.execute(root, { organizationId });
    await activate.execute({ ...root, origin: undefined }, { organizationId });

    expect(await changesIn(h, root.organizationId)).toEqual([]);
    expect(await changesIn(h, organizationId)).toMatchObject([
      { action: 'organization.suspended', actor: { type: 'user', id: root.userId, email: users[0]!.email }, target: { type: 'organization', id: String(organizationId) }, origin: TEST_ORIGIN, details: { from: 'active', to: 'suspended' } },
      // Without a request (the CLI), no origin.
      { action: 'organization.activated', actor: { id: root.userId }, origin: NO_ORIGIN, details: { from: 'suspended', to: 'active' } },
    ]);
  });
});
