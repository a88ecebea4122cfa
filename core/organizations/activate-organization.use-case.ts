import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import type { Organization } from '../accounts/user';
import { setOrganizationStatus } from './organization-status';

/** Lifts a suspension: logins work again, and so do sessions that have not expired meanwhile. Idempotent. */
export class ActivateOrganization {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations' | 'unitOfWork' | 'audit'>) {}

  execute(caller: Caller, input: { organizationId: number }): Promise<Organization> {
    return setOrganizationStatus(this.deps, caller, input.organizationId, 'active');
  }
}
