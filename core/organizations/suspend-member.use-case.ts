import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { User } from '../accounts/user';
import type { OrganizationsDeps } from './organizations-deps';
import { setMemberStatus } from './set-member-status';

/** Suspends a member: they cannot sign in and their sessions end at once (rules in `setMemberStatus`). */
export class SuspendMember {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'sessions' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: Caller, input: { userId: number }): Promise<User> {
    requireRole(caller, 'org_admin');
    return setMemberStatus(this.deps, caller, input.userId, 'suspended');
  }
}
