import { addSeconds } from '../shared/clock.port';
import type { Caller } from '../access/caller';
import { eventBy } from '../audit/audit-actor';
import type { RoleName } from '../access/role';
import type { Organization } from '../accounts/user';
import { invitationEmail } from '../email/templates';
import { DomainError } from '../shared/domain-error';
import { INVITATION_TTL_SECONDS, type Invitation } from './invitation';
import type { InvitationSettings, OrganizationsPorts } from './organizations-deps';

export interface InvitationRequest {
  organization: Pick<Organization, 'id' | 'name'>;
  /** Already normalized. */
  email: string;
  role: RoleName;
  /**
   * Who invites: a member or an organization API key. The invitation carries its authority (see
   * inviterVouches and invitingKeyVouches), and the audit log names it.
   */
  invitedBy: Caller;
}

/**
 * Stores a fresh invitation (replacing a pending one for the same email in the same
 * organization), enqueues the email carrying its token and records `invitation.created` in the
 * organization's audit log (naming the pending invitation it replaced, if any). Must run inside the caller's transaction, so the invitation, its
 * email and its event commit together. The token exists only in the email: the store keeps its
 * hash, and the event names the address and the role, never the token.
 */
export async function issueInvitation(
  ports: Pick<OrganizationsPorts, 'users' | 'invitations' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'outbox' | 'audit'>,
  settings: InvitationSettings,
  request: InvitationRequest,
): Promise<Invitation> {
  if (await ports.users.findByEmail(request.email)) {
    throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
  }
  const token = ports.tokenGenerator.generate();
  const now = ports.clock.now();
  // The pending invitation this one replaces (creating revokes it): the event names it.
  const replaced = (await ports.invitations.listPendingByEmail(request.email, now)).find((pending) => pending.organizationId === request.organization.id);
  const invitation = await ports.invitations.create({
    organizationId: request.organization.id,
    email: request.email,
    role: request.role,
    tokenHash: ports.tokenHasher.hash(token),
    invitedByUserId: request.invitedBy.kind === 'user' ? request.invitedBy.userId : null,
    invitedByApiKeyId: request.invitedBy.kind === 'api_key' ? request.invitedBy.apiKeyId : null,
    expiresAt: addSeconds(now, INVITATION_TTL_SECONDS),
    createdAt: now,
  });
  const email = invitationEmail({
    appName: settings.appName,
    baseWebUrl: settings.baseWebUrl,
    token,
    organizationName: request.organization.name,
    role: request.role,
  });
  await ports.outbox.enqueue({ to: request.email, ...email, tag: 'invitation' });
  const target = { type: 'invitation', id: String(invitation.id) };
  const details = { email: invitation.email, role: invitation.role, ...(replaced ? { replaces_invitation_id: replaced.id } : {}) };
  const event = eventBy(request.invitedBy, 'invitation.created', target, details);
  // In the invitation's organization: a sys_admin creating one invites from their own.
  await ports.audit.record({ ...event, organizationId: invitation.organizationId });
  return invitation;
}
