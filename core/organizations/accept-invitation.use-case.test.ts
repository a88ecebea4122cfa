import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { sessionLogin } from '../../test/builders/accounts';
import { AcceptInvitation } from './accept-invitation.use-case';
import { ChangeMemberRole } from './change-member-role.use-case';
import { RemoveMember } from './remove-member.use-case';
import { CreateInvitation } from './create-invitation.use-case';
import { redeemInvitation } from './redeem-invitation';
import { IdpPendingInvitations } from './idp-pending-invitations';
import { NO_ORIGIN } from '../audit/audit-actor';

async function invited(role: 'readonly' | 'member' | 'org_admin' = 'member') {
  const h = organizationsHarness();
  const { organizationId, users: [admin] } = await h.anOrganization(['org_admin']);
  const invitation = await new CreateInvitation(h.orgDeps).execute(await h.loginAs(admin!), { email: 'new@example.com', role });
  return { h, organizationId, invitation, token: await h.invitationToken('new@example.com'), accept: new AcceptInvitation(h.orgPorts) };
}

describe('AcceptInvitation', () => {
  it('creates a verified user with the invited role in the invited organization, who can log in', async () => {
    const { h, organizationId, token, accept } = await invited('readonly');

    const { userId } = await accept.execute({ token, password: 'password-123', firstName: 'Ada', lastName: null });

    expect(await h.ports.users.findById(userId)).toMatchObject({
      organizationId,
      email: 'new@example.com',
      role: 'readonly',
      emailVerified: true,
      firstName: 'Ada',
      lastName: null,
    });
    await expect(sessionLogin(h).execute({ email: 'new@example.com', password: 'password-123' })).resolves.toMatchObject({ userId });
  });

  it('works once', async () => {
    const { token, accept } = await invited();
    await accept.execute({ token, password: 'password-123' });

    await expect(accept.execute({ token, password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses an expired or unknown token with INVALID_TOKEN', async () => {
    const { h, invitation, token, accept } = await invited();
    h.clock.set(invitation.expiresAt);

    await expect(accept.execute({ token, password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(accept.execute({ token: 'x'.repeat(43), password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('answers EMAIL_ALREADY_EXISTS when the address got an account meanwhile, and keeps the invitation pending', async () => {
    const { h, invitation, token, accept } = await invited();
    await h.aUser({ email: 'new@example.com' });

    await expect(accept.execute({ token, password: 'password-123' })).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, h.clock.now())).resolves.not.toBeNull();
  });

  it('enforces the password policy (8..64 code points) before touching the invitation', async () => {
    const { h, invitation, token, accept } = await invited();

    await expect(accept.execute({ token, password: 'short' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { password: expect.any(String) } });
    await expect(accept.execute({ token, password: '🙂'.repeat(65) })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, h.clock.now())).resolves.not.toBeNull();
  });

  it('lets the identity-provider flow redeem without a password', async () => {
    const { h, invitation } = await invited('member');

    const redeemed = await redeemInvitation(h.orgPorts, { tokenHash: invitation.tokenHash, passwordHash: null, via: 'identity_provider', origin: NO_ORIGIN });

    expect(redeemed).toEqual({ userId: expect.any(Number), organizationId: invitation.organizationId, role: 'member' });
    expect(await h.ports.users.findById(redeemed.userId)).toMatchObject({ passwordHash: null, emailVerified: true });
  });

  it('refuses an invitation whose inviter was removed since (INVALID_TOKEN), even an org_admin one', async () => {
    const h = organizationsHarness();
    const { users: [owner, inviter] } = await h.anOrganization(['org_admin', 'org_admin']);
    await new CreateInvitation(h.orgDeps).execute(await h.loginAs(inviter!), { email: 'new@example.com', role: 'org_admin' });
    const token = await h.invitationToken('new@example.com');
    await new RemoveMember(h.orgPorts).execute(await h.loginAs(owner!), { userId: inviter!.id });

    await expect(new AcceptInvitation(h.orgPorts).execute({ token, password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(h.ports.users.findByEmail('new@example.com')).resolves.toBeNull();
  });

  it('refuses an invitation above what its inviter may grant since a demotion', async () => {
    const h = organizationsHarness();
    const { users: [owner, inviter] } = await h.anOrganization(['org_admin', 'org_admin']);
    const invite = new CreateInvitation(h.orgDeps);
    const inviterCaller = await h.loginAs(inviter!);
    await invite.execute(inviterCaller, { email: 'admin@example.com', role: 'org_admin' });
    const adminToken = await h.invitationToken('admin@example.com');
    await invite.execute(inviterCaller, { email: 'member@example.com', role: 'member' });
    const memberToken = await h.invitationToken('member@example.com');
    await new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(owner!), { userId: inviter!.id, role: 'member' });

    const accept = new AcceptInvitation(h.orgPorts);
    await expect(accept.execute({ token: adminToken, password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    // A member may still grant member: that invitation keeps working.
    await expect(accept.execute({ token: memberToken, password: 'password-123' })).resolves.toMatchObject({ role: 'member' });
  });

  it("accepts an API key's invitation while the key is live, and refuses it once the key is revoked or expired", async () => {
    const h = organizationsHarness();
    const { organizationId, users: [admin] } = await h.anOrganization(['org_admin']);
    const invite = new CreateInvitation(h.orgDeps);
    const accept = new AcceptInvitation(h.orgPorts);
    const live = await h.keyCaller(admin!, 'org_admin');
    const revoked = await h.keyCaller(admin!, 'org_admin');
    const expiring = await h.keyCaller(admin!, 'org_admin', new Date(h.clock.now().getTime() + 3_600_000));
    await invite.execute(live, { email: 'live@example.com', role: 'org_admin' });
    await invite.execute(revoked, { email: 'revoked@example.com', role: 'member' });
    await invite.execute(expiring, { email: 'expiring@example.com', role: 'member' });
    await h.apiKeys.revoke(organizationId, revoked.apiKeyId);
    h.clock.advance(3_600_000);

    await expect(accept.execute({ token: await h.invitationToken('live@example.com'), password: 'password-123' })).resolves.toMatchObject({ organizationId, role: 'org_admin' });
    for (const email of ['revoked@example.com', 'expiring@example.com']) {
      await expect(accept.execute({ token: await h.invitationToken(email), password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      await expect(h.ports.users.findByEmail(email)).resolves.toBeNull();
    }
    expect(await h.invitations.listAcceptable(organizationId, h.clock.now())).toEqual([]);
  });

  it("refuses a revoked key's invitation on the identity-provider path too", async () => {
    const h = organizationsHarness();
    const { organizationId, users: [admin] } = await h.anOrganization(['org_admin']);
    const key = await h.keyCaller(admin!, 'org_admin');
    const invitation = await new CreateInvitation(h.orgDeps).execute(key, { email: 'idp@example.com', role: 'member' });
    const pending = new IdpPendingInvitations(h.orgPorts);
    await h.apiKeys.revoke(organizationId, key.apiKeyId);

    await expect(pending.acceptFor('idp@example.com', { firstName: null, lastName: null }, invitation.tokenHash, NO_ORIGIN)).rejects.toMatchObject({ reason: 'oauth_signup_closed' });
    await expect(h.ports.users.findByEmail('idp@example.com')).resolves.toBeNull();
  });

  it('refuses to join a suspended organization, and keeps the invitation for when it is active again', async () => {
    const { h, organizationId, invitation, token, accept } = await invited();
    await h.ports.organizations.setStatus(organizationId, 'suspended');

    await expect(accept.execute({ token, password: 'password-123' })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, h.clock.now())).resolves.not.toBeNull();
    await h.ports.organizations.setStatus(organizationId, 'active');
    await expect(accept.execute({ token, password: 'password-123' })).resolves.toMatchObject({ organizationId });
  });
});
