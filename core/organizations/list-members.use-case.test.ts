import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { ListMembers } from './list-members.use-case';

describe('ListMembers', () => {
  it("lists the caller's organization's members only, in joining order", async () => {
    const h = organizationsHarness();
    const acme = await h.anOrganization(['org_admin', 'member', 'readonly']);
    await h.anOrganization(['org_admin', 'member']);

    const members = await new ListMembers(h.ports).execute(await h.loginAs(acme.users[0]!));

    expect(members.map((m) => m.id)).toEqual(acme.users.map((u) => u.id));
  });

  it('is for org_admins and above', async () => {
    const h = organizationsHarness();
    const acme = await h.anOrganization(['org_admin', 'member']);

    await expect(new ListMembers(h.ports).execute(await h.loginAs(acme.users[1]!))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});
