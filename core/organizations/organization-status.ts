import type { Caller } from '../access/caller';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { AccountStatus, Organization } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { requireRole } from '../access/require-role';

/**
 * Shared by SuspendOrganization and ActivateOrganization. Only the status changes: members,
 * sessions and data stay, and since authentication reads the organization's status on every
 * request, the change takes effect at once in both directions.
 */
export async function setOrganizationStatus(
  organizations: OrganizationRepository,
  caller: Caller,
  organizationId: number,
  status: AccountStatus,
): Promise<Organization> {
  requireRole(caller, 'sys_admin');
  // Suspending one's own organization would lock the caller (and perhaps every sys_admin) out.
  if (status === 'suspended' && organizationId === caller.organizationId) {
    throw new DomainError('ACCESS_DENIED', 'You cannot suspend your own organization');
  }
  const organization = await organizations.setStatus(organizationId, status);
  if (!organization) throw resourceNotFound('organization', organizationId);
  return organization;
}
