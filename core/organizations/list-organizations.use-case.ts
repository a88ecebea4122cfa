import type { Caller } from '../accounts/caller';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { Organization } from '../accounts/user';
import { requireRole } from './membership-rules';

/** Every organization, oldest first: a sys_admin's view. */
export class ListOrganizations {
  constructor(private readonly deps: { organizations: OrganizationRepository }) {}

  async execute(caller: Caller): Promise<Organization[]> {
    requireRole(caller, 'sys_admin');
    return this.deps.organizations.list();
  }
}
