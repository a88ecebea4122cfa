import type { Caller } from '../access/caller';
import type { AccountStatus, Organization } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { requireRole } from '../access/require-role';
import { eventBy } from '../audit/audit-actor';
import type { OrganizationsDeps } from './organizations-deps';

/**
 * Shared by SuspendOrganization and ActivateOrganization. Only the status changes: members,
 * sessions and data stay, and since authentication reads the organization's status on every
 * request, the change takes effect at once in both directions. An actual change commits with its
 * `organization.suspended` or `organization.activated` event, in the audit log of the organization
 * changed (the sys_admin acting belongs to another one); a repeated one records nothing.
 */
export async function setOrganizationStatus(
  deps: Pick<OrganizationsDeps, 'organizations' | 'unitOfWork' | 'audit'>,
  caller: Caller,
  organizationId: number,
  status: AccountStatus,
): Promise<Organization> {
  requireRole(caller, 'sys_admin');
  // Suspending one's own organization would lock the caller (and perhaps every sys_admin) out.
  if (status === 'suspended' && organizationId === caller.organizationId) {
    throw new DomainError('ACCESS_DENIED', 'You cannot suspend your own organization');
  }
  return deps.unitOfWork.transaction(async () => {
    await deps.organizations.lock(organizationId);
    const before = await deps.organizations.findById(organizationId);
    const organization = before && (await deps.organizations.setStatus(organizationId, status));
    if (!before || !organization) throw resourceNotFound('organization', organizationId);
    if (before.status !== organization.status) {
      const action = status === 'suspended' ? 'organization.suspended' : 'organization.activated';
      const event = eventBy(caller, action, { type: 'organization', id: String(organizationId) }, { from: before.status, to: organization.status });
      // In the changed organization's log: the sys_admin acting belongs to another one.
      await deps.audit.record({ ...event, organizationId });
    }
    return organization;
  });
}
