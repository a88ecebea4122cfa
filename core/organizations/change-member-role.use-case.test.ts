import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { ChangeMemberRole } from './change-member-role.use-case';

describe('ChangeMemberRole', () => {
  it("changes a member's role, effective at once on their open sessions", async () => {
    const h = organizationsHarness();
    const { users: [admin, member] } = await h.anOrganization(['org_admin', 'member']);
    const memberSession = await h.loginAs(member!);

    const updated = await new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(admin!), { userId: member!.id, role: 'org_admin' });

    expect(updated).toMatchObject({ id: member!.id, role: 'org_admin' });
    await expect(h.authenticate(memberSession.token)).resolves.toMatchObject({ role: 'org_admin' });
  });

  it('lets an admin step down while another administrator remains', async () => {
    const h = organizationsHarness();
    const { users: [first, second] } = await h.anOrganization(['org_admin', 'org_admin']);

    await expect(new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(first!), { userId: first!.id, role: 'member' })).resolves.toMatchObject({
      role: 'member',
    });
    await expect(
      new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(second!), { userId: second!.id, role: 'readonly' }),
    ).rejects.toMatchObject({ code: 'LAST_ORG_ADMIN' });
    expect((await h.ports.users.findById(second!.id))?.role).toBe('org_admin');
  });

  it('never grants above the caller’s role, and an org_admin never grants sys_admin', async () => {
    const h = organizationsHarness();
    const { users: [admin, member] } = await h.anOrganization(['org_admin', 'member']);

    await expect(
      new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(admin!), { userId: member!.id, role: 'sys_admin' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect((await h.ports.users.findById(member!.id))?.role).toBe('member');
  });

  it('does not let an org_admin touch a sys_admin of their organization', async () => {
    const h = organizationsHarness();
    const { users: [admin, sysAdmin] } = await h.anOrganization(['org_admin', 'sys_admin']);

    await expect(
      new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(admin!), { userId: sysAdmin!.id, role: 'member' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('treats a user of another organization, or no user, as RESOURCE_NOT_FOUND member', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const { users: [stranger] } = await h.anOrganization(['member']);
    const change = new ChangeMemberRole(h.orgPorts);
    const caller = await h.loginAs(admin!);

    for (const userId of [stranger!.id, 9_999]) {
      await expect(change.execute(caller, { userId, role: 'readonly' })).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        details: { resource: 'member', resource_id: userId },
      });
    }
    expect((await h.ports.users.findById(stranger!.id))?.role).toBe('member');
  });

  it('is for org_admins and above', async () => {
    const h = organizationsHarness();
    const { users: [, member, other] } = await h.anOrganization(['org_admin', 'member', 'readonly']);

    await expect(
      new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(member!), { userId: other!.id, role: 'readonly' }),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('keeps the last sys_admin of the system from stepping down, even with another administrator beside them', async () => {
    const h = organizationsHarness();
    const { users: [root, deputy] } = await h.anOrganization(['sys_admin', 'org_admin'], 'System');

    await expect(new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(root!), { userId: root!.id, role: 'org_admin' })).rejects.toMatchObject({
      code: 'LAST_ORG_ADMIN',
      details: { role: 'sys_admin' },
    });
    expect((await h.ports.users.findById(root!.id))?.role).toBe('sys_admin');
    expect(deputy!.role).toBe('org_admin');
  });

  it('lets a sys_admin step down while another sys_admin exists, in any organization', async () => {
    const h = organizationsHarness();
    const { users: [root] } = await h.anOrganization(['sys_admin', 'org_admin'], 'System');
    await h.anOrganization(['sys_admin'], 'System 2');

    await expect(new ChangeMemberRole(h.orgPorts).execute(await h.loginAs(root!), { userId: root!.id, role: 'org_admin' })).resolves.toMatchObject({
      role: 'org_admin',
    });
  });
});
