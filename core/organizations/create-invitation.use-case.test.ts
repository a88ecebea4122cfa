import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { CreateInvitation } from './create-invitation.use-case';

describe('CreateInvitation', () => {
  it('stores a 7-day invitation with only the token hash, and emails the token', async () => {
    const h = organizationsHarness();
    const { organizationId, users: [admin] } = await h.anOrganization(['org_admin'], 'Acme');

    const invitation = await new CreateInvitation(h.orgPorts, h.settings).execute(await h.loginAs(admin!), {
      email: 'New@Example.com',
      role: 'member',
    });

    expect(invitation).toMatchObject({ organizationId, email: 'new@example.com', role: 'member', invitedByUserId: admin!.id, acceptedAt: null });
    expect(invitation.expiresAt.getTime() - invitation.createdAt.getTime()).toBe(7 * 86_400_000);
    const token = await h.invitationToken('new@example.com');
    expect(invitation.tokenHash).toBe(h.ports.tokenHasher.hash(token));
    expect(invitation.tokenHash).not.toContain(token);
    const [email] = await h.outbox.pending();
    expect(email?.text).toContain('https://app.example.com/invite/accept?token=');
    expect(email?.text).toContain('Acme');
  });

  it('replaces the pending invitation when the same email is invited again', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const invite = new CreateInvitation(h.orgPorts, h.settings);
    const caller = await h.loginAs(admin!);

    const first = await invite.execute(caller, { email: 'new@example.com', role: 'member' });
    const second = await invite.execute(caller, { email: 'new@example.com', role: 'readonly' });

    expect((await h.invitations.listPending(caller.organizationId, h.clock.now())).map((i) => i.id)).toEqual([second.id]);
    await expect(h.invitations.findPendingByTokenHash(first.tokenHash, h.clock.now())).resolves.toBeNull();
  });

  it('never invites above the caller’s role, nor a sys_admin by an org_admin', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);

    await expect(
      new CreateInvitation(h.orgPorts, h.settings).execute(await h.loginAs(admin!), { email: 'x@example.com', role: 'sys_admin' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await h.outbox.pending()).toEqual([]);
  });

  it('lets a sys_admin invite a sys_admin into their own organization', async () => {
    const h = organizationsHarness();
    const { users: [sysAdmin] } = await h.anOrganization(['sys_admin']);

    await expect(
      new CreateInvitation(h.orgPorts, h.settings).execute(await h.loginAs(sysAdmin!), { email: 'x@example.com', role: 'sys_admin' }),
    ).resolves.toMatchObject({ role: 'sys_admin' });
  });

  it('answers EMAIL_ALREADY_EXISTS for an address that has an account anywhere', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const { users: [elsewhere] } = await h.anOrganization(['member']);

    await expect(
      new CreateInvitation(h.orgPorts, h.settings).execute(await h.loginAs(admin!), { email: elsewhere!.email.toUpperCase(), role: 'member' }),
    ).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    expect(await h.outbox.pending()).toEqual([]);
  });

  it('is for org_admins and above', async () => {
    const h = organizationsHarness();
    const { users: [, member] } = await h.anOrganization(['org_admin', 'member']);

    await expect(
      new CreateInvitation(h.orgPorts, h.settings).execute(await h.loginAs(member!), { email: 'x@example.com', role: 'readonly' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});
