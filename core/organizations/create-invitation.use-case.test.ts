import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { vi } from 'vitest';
import { CreateInvitation, INVITATION_LIMITS } from './create-invitation.use-case';

describe('CreateInvitation', () => {
  it('stores a 7-day invitation with only the token hash, and emails the token', async () => {
    const h = organizationsHarness();
    const { organizationId, users: [admin] } = await h.anOrganization(['org_admin'], 'Acme');

    const invitation = await new CreateInvitation(h.orgDeps).execute(await h.loginAs(admin!), {
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

  it('lets an API key invite up to its own role, recording the key as the issuer; the email names the organization', async () => {
    const h = organizationsHarness();
    const { organizationId, users: [admin] } = await h.anOrganization(['org_admin'], 'Acme');
    const key = await h.keyCaller(admin!, 'org_admin');

    const invitation = await new CreateInvitation(h.orgDeps).execute(key, { email: 'new@example.com', role: 'org_admin' });

    expect(invitation).toMatchObject({ organizationId, role: 'org_admin', invitedByUserId: null, invitedByApiKeyId: key.apiKeyId });
    const [email] = await h.outbox.pending();
    expect(email?.text).toContain('join the organization named “Acme”');
    expect(await h.invitations.listAcceptable(organizationId, h.clock.now())).toEqual([invitation]);
  });

  it('refuses an API key an invitation above its role, and a readonly key any invitation, as for members', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const invite = new CreateInvitation(h.orgDeps);

    await expect(invite.execute(await h.keyCaller(admin!, 'member'), { email: 'x@example.com', role: 'member' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(invite.execute(await h.keyCaller(admin!, 'readonly'), { email: 'x@example.com', role: 'readonly' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(invite.execute(await h.keyCaller(admin!, 'org_admin'), { email: 'x@example.com', role: 'sys_admin' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await h.outbox.pending()).toEqual([]);
  });

  it('replaces the pending invitation when the same email is invited again', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const invite = new CreateInvitation(h.orgDeps);
    const caller = await h.loginAs(admin!);

    const first = await invite.execute(caller, { email: 'new@example.com', role: 'member' });
    const second = await invite.execute(caller, { email: 'new@example.com', role: 'readonly' });

    expect((await h.invitations.listAcceptable(caller.organizationId, h.clock.now())).map((i) => i.id)).toEqual([second.id]);
    await expect(h.invitations.findPendingByTokenHash(first.tokenHash, h.clock.now())).resolves.toBeNull();
  });

  it('never invites above the caller’s role, nor a sys_admin by an org_admin', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);

    await expect(
      new CreateInvitation(h.orgDeps).execute(await h.loginAs(admin!), { email: 'x@example.com', role: 'sys_admin' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await h.outbox.pending()).toEqual([]);
  });

  it('lets a sys_admin invite a sys_admin into their own organization', async () => {
    const h = organizationsHarness();
    const { users: [sysAdmin] } = await h.anOrganization(['sys_admin']);

    await expect(
      new CreateInvitation(h.orgDeps).execute(await h.loginAs(sysAdmin!), { email: 'x@example.com', role: 'sys_admin' }),
    ).resolves.toMatchObject({ role: 'sys_admin' });
  });

  it('answers EMAIL_ALREADY_EXISTS for an address that has an account anywhere', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const { users: [elsewhere] } = await h.anOrganization(['member']);

    await expect(
      new CreateInvitation(h.orgDeps).execute(await h.loginAs(admin!), { email: elsewhere!.email.toUpperCase(), role: 'member' }),
    ).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    expect(await h.outbox.pending()).toEqual([]);
  });

  it('is for org_admins and above', async () => {
    const h = organizationsHarness();
    const { users: [, member] } = await h.anOrganization(['org_admin', 'member']);

    await expect(
      new CreateInvitation(h.orgDeps).execute(await h.loginAs(member!), { email: 'x@example.com', role: 'readonly' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('sends one address at most 5 invitations a day, whichever organizations send them', async () => {
    const h = organizationsHarness();
    const invite = new CreateInvitation(h.orgDeps);
    const callers = [];
    for (let i = 0; i < 3; i += 1) callers.push(await h.loginAs((await h.anOrganization(['org_admin'])).users[0]!));

    const outcomes = [];
    for (let i = 0; i < 8; i += 1) {
      outcomes.push(await invite.execute(callers[i % 3]!, { email: 'victim@example.com', role: 'member' }).then(() => 'sent', (e: { code: string }) => e.code));
    }

    expect(INVITATION_LIMITS.perRecipient.rule).toEqual({ count: 5, windowSeconds: 86_400 });
    expect(outcomes).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'TOO_MANY_ATTEMPTS', 'TOO_MANY_ATTEMPTS', 'TOO_MANY_ATTEMPTS']);
    expect((await h.outbox.pending()).filter((m) => m.to === 'victim@example.com')).toHaveLength(5);
    await expect(invite.execute(callers[0]!, { email: 'other@example.com', role: 'member' })).resolves.toBeDefined();
  });

  it('lets one organization attempt 20 invitations an hour, refused ones included, so it cannot enumerate accounts', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const caller = await h.loginAs(admin!);
    const invite = new CreateInvitation(h.orgDeps);
    for (let i = 0; i < 20; i += 1) await h.aUser({ email: `known${i}@example.com` });

    const answers = [];
    for (let i = 0; i < 21; i += 1) {
      answers.push(await invite.execute(caller, { email: `known${i}@example.com`, role: 'member' }).catch((e: { code: string }) => e.code));
    }

    expect(answers.slice(0, 20)).toEqual(Array(20).fill('EMAIL_ALREADY_EXISTS'));
    expect(answers[20]).toBe('TOO_MANY_ATTEMPTS');
    await expect(invite.execute(caller, { email: 'fresh@example.com', role: 'member' })).rejects.toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      details: { retry_after: expect.any(Number) },
    });
    const other = await h.loginAs((await h.anOrganization(['org_admin'])).users[0]!);
    await expect(invite.execute(other, { email: 'fresh@example.com', role: 'member' })).resolves.toBeDefined();
  });

  it('spends a full password-hash comparison on an address that has an account, as a login does', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    await h.aUser({ email: 'known@example.com' });
    const verify = vi.spyOn(h.ports.passwordHasher, 'verify');

    await expect(
      new CreateInvitation(h.orgDeps).execute(await h.loginAs(admin!), { email: 'known@example.com', role: 'member' }),
    ).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    expect(verify).toHaveBeenCalledWith('known@example.com', null);
  });
});
