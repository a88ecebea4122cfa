import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { AcceptInvitation } from './accept-invitation.use-case';
import { CreateInvitation } from './create-invitation.use-case';
import { RevokeInvitation } from './revoke-invitation.use-case';

describe('RevokeInvitation', () => {
  it('revokes a pending invitation: its link stops working', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const caller = await h.loginAs(admin!);
    const invitation = await new CreateInvitation(h.orgDeps).execute(caller, { email: 'x@example.com', role: 'member' });
    const token = await h.invitationToken('x@example.com');

    await new RevokeInvitation(h.orgPorts).execute(caller, { invitationId: invitation.id });

    await expect(new AcceptInvitation(h.orgPorts).execute({ token, password: 'password-123' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('answers RESOURCE_NOT_FOUND invitation for another organization’s, an unknown or an already revoked one', async () => {
    const h = organizationsHarness();
    const { users: [admin] } = await h.anOrganization(['org_admin']);
    const { users: [otherAdmin] } = await h.anOrganization(['org_admin']);
    const caller = await h.loginAs(admin!);
    const foreign = await new CreateInvitation(h.orgDeps).execute(await h.loginAs(otherAdmin!), { email: 'x@example.com', role: 'member' });
    const own = await new CreateInvitation(h.orgDeps).execute(caller, { email: 'y@example.com', role: 'member' });
    const revoke = new RevokeInvitation(h.orgPorts);
    await revoke.execute(caller, { invitationId: own.id });

    for (const invitationId of [foreign.id, 9_999, own.id]) {
      await expect(revoke.execute(caller, { invitationId })).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        details: { resource: 'invitation', resource_id: invitationId },
      });
    }
    await expect(h.invitations.findPendingByTokenHash(foreign.tokenHash, h.clock.now())).resolves.not.toBeNull();
  });
});
