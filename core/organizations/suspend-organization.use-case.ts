import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import type { Organization } from '../accounts/user';
import { setOrganizationStatus } from './organization-status';

/**
 * Suspends an organization: every member's sessions are refused (UNAUTHORIZED) and their logins
 * answer ACCOUNT_SUSPENDED until it is activated again. Nothing is deleted. Idempotent.
 */
export class SuspendOrganization {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations' | 'unitOfWork' | 'audit'>) {}

  execute(caller: Caller, input: { organizationId: number }): Promise<Organization> {
    return setOrganizationStatus(this.deps, caller, input.organizationId, 'suspended');
  }
}
