import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { CreateOrganization } from './create-organization.use-case';

describe('CreateOrganization', () => {
  it('creates the organization and invites admin_email as its org_admin, emailing a 7-day link', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['sys_admin'], 'System');
    const caller = await h.loginAs(admin!);

    const { organization, invitation } = await new CreateOrganization(h.orgDeps).execute(caller, {
      name: 'Acme',
      adminEmail: ' Boss@Acme.test ',
    });

    expect(organization).toMatchObject({ name: 'Acme', status: 'active' });
    expect(invitation).toMatchObject({
      organizationId: organization.id,
      email: 'boss@acme.test',
      role: 'org_admin',
      invitedByUserId: admin!.id,
      expiresAt: new Date(h.clock.now().getTime() + 7 * 86_400_000),
    });
    const [email] = await h.outbox.pending();
    expect(email).toMatchObject({ to: 'boss@acme.test', tag: 'invitation', text: expect.stringContaining('Acme') });
    const token = await h.invitationToken('boss@acme.test');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invitation.tokenHash).toBe(h.ports.tokenHasher.hash(token));
    expect(await h.ports.users.listByOrganization(organization.id)).toEqual([]);
  });

  it('is for sys_admins only', async () => {
    const h = organizationsHarness();
    const { users: [orgAdmin] } = await h.anOrganization(['org_admin']);

    await expect(
      new CreateOrganization(h.orgDeps).execute(await h.loginAs(orgAdmin!), { name: 'Acme', adminEmail: 'a@b.test' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await h.ports.organizations.list()).toHaveLength(1);
  });

  it('leaves nothing behind when admin_email already has an account', async () => {
    const h = organizationsHarness();
    const { users: [admin, taken] } = await h.anOrganization(['sys_admin', 'member']);

    await expect(
      new CreateOrganization(h.orgDeps).execute(await h.loginAs(admin!), { name: 'Acme', adminEmail: taken!.email }),
    ).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    expect((await h.ports.organizations.list()).map((o) => o.name)).not.toContain('Acme');
    expect(await h.outbox.pending()).toEqual([]);
  });
});
