import type { Caller } from '../accounts/caller';
import type { User } from '../accounts/user';
import type { UserRepository } from '../accounts/user-repository.port';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import { requireRole } from './membership-rules';

/** The members of the caller's organization (never another's), in joining order, a page at a time. */
export class ListMembers {
  constructor(private readonly deps: { users: UserRepository }) {}

  async execute(caller: Caller, page: PageRequest): Promise<Page<User>> {
    requireRole(caller, 'org_admin');
    return readPage(page, (window) => this.deps.users.listByOrganization(caller.organizationId, window));
  }
}
