import type { Caller } from '../accounts/caller';
import type { User } from '../accounts/user';
import type { UserRepository } from '../accounts/user-repository.port';
import { requireRole } from './membership-rules';

/** The members of the caller's organization (never another's), in joining order. */
export class ListMembers {
  constructor(private readonly deps: { users: UserRepository }) {}

  async execute(caller: Caller): Promise<User[]> {
    requireRole(caller, 'org_admin');
    return this.deps.users.listByOrganization(caller.organizationId);
  }
}
