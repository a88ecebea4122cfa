import { InMemoryProjectRepository } from '../../test/builders/adapters';
import { describe, expect, it } from 'vitest';
import { UNLIMITED } from '../plans/feature-catalogue';
import { organizationsHarness } from '../../test/builders/organizations';
import { RemoveMember } from './remove-member.use-case';

describe('RemoveMember', () => {
  it('deletes the user, kills their sessions at once and cascades to their projects', async () => {
    const h = organizationsHarness();
    const projects = new InMemoryProjectRepository(h.store);
    const { organizationId, users: [admin, member] } = await h.anOrganization(['org_admin', 'member']);
    const memberSession = await h.loginAs(member!);
    await projects.createWithinLimit(organizationId, { userId: member!.id, name: 'Theirs', description: null, createdAt: h.clock.now() }, UNLIMITED);
    await projects.createWithinLimit(organizationId, { userId: admin!.id, name: 'Mine', description: null, createdAt: h.clock.now() }, UNLIMITED);

    await new RemoveMember(h.orgPorts).execute(await h.loginAs(admin!), { userId: member!.id });

    expect(await h.ports.users.findById(member!.id)).toBeNull();
    await expect(h.authenticate(memberSession.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await projects.list(organizationId)).map((p) => p.name)).toEqual(['Mine']);
  });

  it('refuses to remove the caller themselves', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin', 'org_admin']);

    await expect(new RemoveMember(h.orgPorts).execute(await h.loginAs(admin!), { userId: admin!.id })).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
  });

  it('never removes the last administrator, even for a caller whose own demotion raced the request', async () => {
    const h = organizationsHarness();
    const { organizationId, users: [caller, lastAdmin] } = await h.anOrganization(['org_admin', 'org_admin']);
    const staleCaller = await h.loginAs(caller!);
    await h.ports.users.updateRole(organizationId, caller!.id, 'member');

    await expect(new RemoveMember(h.orgPorts).execute(staleCaller, { userId: lastAdmin!.id })).rejects.toMatchObject({
      code: 'LAST_ORG_ADMIN',
    });
    expect(await h.ports.users.findById(lastAdmin!.id)).not.toBeNull();
  });

  it('does not let an org_admin remove a sys_admin', async () => {
    const h = organizationsHarness();
    const { users: [admin, sysAdmin] } = await h.anOrganization(['org_admin', 'sys_admin']);

    await expect(new RemoveMember(h.orgPorts).execute(await h.loginAs(admin!), { userId: sysAdmin!.id })).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
  });

  it('treats another organization’s user as RESOURCE_NOT_FOUND member', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const { users: [stranger] } = await h.anOrganization(['member']);

    await expect(new RemoveMember(h.orgPorts).execute(await h.loginAs(admin!), { userId: stranger!.id })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'member', resource_id: stranger!.id },
    });
    expect(await h.ports.users.findById(stranger!.id)).not.toBeNull();
  });
});
