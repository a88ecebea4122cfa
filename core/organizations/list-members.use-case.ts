import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import type { User } from '../accounts/user';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import { requireRole } from '../access/require-role';

/** The members of the caller's organization (never another's), in joining order, a page at a time. */
export class ListMembers {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users'>) {}

  async execute(caller: Caller, page: PageRequest): Promise<Page<User>> {
    requireRole(caller, 'org_admin');
    return readPage(page, (window) => this.deps.users.listByOrganization(caller.organizationId, window));
  }
}
