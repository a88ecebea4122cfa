import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { sessionLogin } from '../../test/builders/accounts';
import { ChangeMemberRole } from './change-member-role.use-case';
import { ActivateMember } from './activate-member.use-case';
import { SuspendMember } from './suspend-member.use-case';

describe('SuspendMember / ActivateMember', () => {
  it('suspends a member: their sessions end, login says ACCOUNT_SUSPENDED; activation lets them back in', async () => {
    const h = organizationsHarness();
    const { users: [admin, member] } = await h.anOrganization(['org_admin', 'member']);
    const memberSession = await h.loginAs(member!);
    const caller = await h.loginAs(admin!);

    await expect(new SuspendMember(h.orgDeps).execute(caller, { userId: member!.id })).resolves.toMatchObject({ id: member!.id, status: 'suspended' });
    await expect(h.authenticate(memberSession.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect([...h.store.sessions.values()].filter((s) => s.user_id === member!.id)).toHaveLength(0);
    const login = sessionLogin(h);
    await expect(login.execute({ email: member!.email, password: 'password-123' })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await expect(login.execute({ email: member!.email, password: 'wrong-password' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });

    await expect(new SuspendMember(h.orgDeps).execute(caller, { userId: member!.id })).resolves.toMatchObject({ status: 'suspended' });
    await expect(new ActivateMember(h.orgDeps).execute(caller, { userId: member!.id })).resolves.toMatchObject({ status: 'active' });
    await expect(login.execute({ email: member!.email, password: 'password-123' })).resolves.toBeDefined();
  });

  it('refuses oneself, members of other organizations, members ranked above, and non-admins', async () => {
    const h = organizationsHarness();
    const { users: [admin, member] } = await h.anOrganization(['org_admin', 'member']);
    const { users: [stranger] } = await h.anOrganization(['member']);
    const { users: [sysAdmin, orgAdmin] } = await h.anOrganization(['sys_admin', 'org_admin']);
    const suspend = new SuspendMember(h.orgDeps);
    const caller = await h.loginAs(admin!);
    await expect(suspend.execute(caller, { userId: admin!.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(suspend.execute(caller, { userId: stranger!.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await expect(suspend.execute(await h.loginAs(orgAdmin!), { userId: sysAdmin!.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(suspend.execute(await h.loginAs(member!), { userId: admin!.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(new ActivateMember(h.orgDeps).execute(caller, { userId: stranger!.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('never suspends the last active administrator, and a suspended one no longer counts', async () => {
    const h = organizationsHarness();
    const { organizationId, users: [a, b, c] } = await h.anOrganization(['org_admin', 'org_admin', 'org_admin']);
    const callerA = await h.loginAs(a!);
    const staleB = await h.loginAs(b!);
    await new SuspendMember(h.orgDeps).execute(callerA, { userId: c!.id });
    // B's session is stale: B was demoted meanwhile, so A is the last active administrator.
    await h.ports.users.updateRole(organizationId, b!.id, 'member');
    await expect(new SuspendMember(h.orgDeps).execute(staleB, { userId: a!.id })).rejects.toMatchObject({ code: 'LAST_ORG_ADMIN' });
    // The suspended administrator can still be demoted or reactivated: nothing is taken from the active ones.
    await expect(new ChangeMemberRole(h.orgDeps).execute(callerA, { userId: c!.id, role: 'member' })).resolves.toMatchObject({ role: 'member' });
    await expect(new ActivateMember(h.orgDeps).execute(callerA, { userId: c!.id })).resolves.toMatchObject({ status: 'active' });
  });
});
