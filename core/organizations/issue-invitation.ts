import { addSeconds } from '../shared/clock.port';
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
  invitedByUserId: number;
}

/**
 * Stores a fresh invitation (replacing a pending one for the same email in the same
 * organization) and enqueues the email carrying its token. Must run inside the caller's
 * transaction, so the invitation and its email commit together. The token exists only in the
 * email: the store keeps its hash.
 */
export async function issueInvitation(
  ports: Pick<OrganizationsPorts, 'users' | 'invitations' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'outbox'>,
  settings: InvitationSettings,
  request: InvitationRequest,
): Promise<Invitation> {
  if (await ports.users.findByEmail(request.email)) {
    throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
  }
  const token = ports.tokenGenerator.generate();
  const now = ports.clock.now();
  const invitation = await ports.invitations.create({
    organizationId: request.organization.id,
    email: request.email,
    role: request.role,
    tokenHash: ports.tokenHasher.hash(token),
    invitedByUserId: request.invitedByUserId,
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
  return invitation;
}
