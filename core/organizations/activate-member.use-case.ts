import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { User } from '../accounts/user';
import type { OrganizationsDeps } from './organizations-deps';
import { setMemberStatus } from './set-member-status';

/** Reactivates a suspended member (rules in `setMemberStatus`). */
export class ActivateMember {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'sessions' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: Caller, input: { userId: number }): Promise<User> {
    requireRole(caller, 'org_admin');
    return setMemberStatus(this.deps, caller, input.userId, 'active');
  }
}
