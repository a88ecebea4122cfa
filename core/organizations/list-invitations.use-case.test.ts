import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { CreateInvitation } from './create-invitation.use-case';
import { ListInvitations } from './list-invitations.use-case';

describe('ListInvitations', () => {
  it("lists the caller's organization's pending invitations only; expired ones drop out", async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const { users: [otherAdmin] } = await h.anOrganization(['org_admin']);
    const invite = new CreateInvitation(h.orgDeps);
    const caller = await h.loginAs(admin!);
    const early = await invite.execute(caller, { email: 'early@example.com', role: 'member' });
    h.clock.advanceSeconds(3_600);
    const late = await invite.execute(caller, { email: 'late@example.com', role: 'readonly' });
    await invite.execute(await h.loginAs(otherAdmin!), { email: 'elsewhere@example.com', role: 'member' });
    const list = new ListInvitations(h.orgPorts);

    expect((await list.execute(caller, { limit: 100 })).items.map((i) => i.id)).toEqual([early.id, late.id]);
    h.clock.set(early.expiresAt);
    expect((await list.execute(caller, { limit: 100 })).items.map((i) => i.id)).toEqual([late.id]);
  });

  it('is for org_admins and above', async () => {
    const h = organizationsHarness();
    const { users: [, member] } = await h.anOrganization(['org_admin', 'member']);

    await expect(new ListInvitations(h.orgPorts).execute(await h.loginAs(member!), { limit: 100 })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});
