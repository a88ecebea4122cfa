import type { Caller } from '../accounts/caller';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { Organization } from '../accounts/user';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import { requireRole } from './membership-rules';

/** Every organization, oldest first, a page at a time when asked: a sys_admin's view. */
export class ListOrganizations {
  constructor(private readonly deps: { organizations: OrganizationRepository }) {}

  async execute(caller: Caller, page: PageRequest): Promise<Page<Organization>> {
    requireRole(caller, 'sys_admin');
    return readPage(page, (window) => this.deps.organizations.list(window));
  }
}
