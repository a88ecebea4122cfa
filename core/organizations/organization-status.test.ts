import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { sessionLogin } from '../../test/builders/accounts';
import { ActivateOrganization } from './activate-organization.use-case';
import { ListOrganizations } from './list-organizations.use-case';
import { SuspendOrganization } from './suspend-organization.use-case';

describe('ListOrganizations, SuspendOrganization, ActivateOrganization', () => {
  it('lists every organization, oldest first, to a sys_admin only', async () => {
    const h = organizationsHarness();
    const system = await h.anOrganization(['sys_admin'], 'System');
    const acme = await h.anOrganization(['org_admin'], 'Acme');
    const list = new ListOrganizations(h.ports);

    expect((await list.execute(await h.loginAs(system.users[0]!), { limit: 100 })).items.map((o) => o.id)).toEqual([system.organizationId, acme.organizationId]);
    await expect(list.execute(await h.loginAs(acme.users[0]!), { limit: 100 })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('suspension refuses the members’ sessions and logins and keeps everything; activation restores both', async () => {
    const h = organizationsHarness();
    const system = await h.anOrganization(['sys_admin'], 'System');
    const acme = await h.anOrganization(['org_admin', 'member']);
    const sysAdmin = await h.loginAs(system.users[0]!);
    const memberSession = await h.loginAs(acme.users[1]!);
    const login = sessionLogin(h);
    const credentials = { email: acme.users[1]!.email, password: 'password-123' };

    const suspended = await new SuspendOrganization(h.ports).execute(sysAdmin, { organizationId: acme.organizationId });

    expect(suspended).toMatchObject({ id: acme.organizationId, status: 'suspended' });
    await expect(h.authenticate(memberSession.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(login.execute(credentials)).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    expect(await h.ports.users.listByOrganization(acme.organizationId)).toHaveLength(2);
    await expect(h.authenticate(sysAdmin.token)).resolves.toMatchObject({ userId: sysAdmin.userId });

    const active = await new ActivateOrganization(h.ports).execute(sysAdmin, { organizationId: acme.organizationId });

    expect(active.status).toBe('active');
    await expect(h.authenticate(memberSession.token)).resolves.toMatchObject({ userId: memberSession.userId });
    await expect(login.execute(credentials)).resolves.toMatchObject({ userId: memberSession.userId });
  });

  it('answers RESOURCE_NOT_FOUND for an unknown organization, and refuses non-sys_admins', async () => {
    const h = organizationsHarness();
    const system = await h.anOrganization(['sys_admin']);
    const acme = await h.anOrganization(['org_admin']);
    const suspend = new SuspendOrganization(h.ports);

    await expect(suspend.execute(await h.loginAs(system.users[0]!), { organizationId: 9_999 })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'organization', resource_id: 9_999 },
    });
    await expect(suspend.execute(await h.loginAs(acme.users[0]!), { organizationId: acme.organizationId })).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
  });

  it('does not let a sys_admin suspend their own organization', async () => {
    const h = organizationsHarness();
    const system = await h.anOrganization(['sys_admin']);

    await expect(
      new SuspendOrganization(h.ports).execute(await h.loginAs(system.users[0]!), { organizationId: system.organizationId }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect((await h.ports.organizations.findById(system.organizationId))?.status).toBe('active');
  });
});
