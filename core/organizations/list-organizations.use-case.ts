import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import type { Organization } from '../accounts/user';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import { requireRole } from '../access/require-role';

/** Every organization, oldest first, a page at a time when asked: a sys_admin's view. */
export class ListOrganizations {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations'>) {}

  async execute(caller: Caller, page: PageRequest): Promise<Page<Organization>> {
    requireRole(caller, 'sys_admin');
    return readPage(page, (window) => this.deps.organizations.list(window));
  }
}
