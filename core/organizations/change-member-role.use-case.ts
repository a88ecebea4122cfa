import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import type { User } from '../accounts/user';
import { resourceNotFound } from '../shared/domain-error';
import { guardMemberChange } from './member-change';
import { requireRole } from '../access/require-role';
import { assertMayGrant } from './membership-rules';

/**
 * Changes a member's role in the caller's organization. Refused: granting above the caller's
 * own role (or sys_admin by anyone but a sys_admin), touching a member ranked above the caller
 * (ACCESS_DENIED), demoting the last administrator (LAST_ORG_ADMIN). The new role applies to the
 * member's open sessions at once: authentication reads it on every request.
 */
export class ChangeMemberRole {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'unitOfWork'>) {}

  async execute(caller: Caller, input: { userId: number; role: RoleName }): Promise<User> {
    requireRole(caller, 'org_admin');
    assertMayGrant(caller.role, input.role);
    return this.deps.unitOfWork.transaction(async () => {
      await guardMemberChange(this.deps, caller, input.userId, input.role);
      const updated = await this.deps.users.updateRole(caller.organizationId, input.userId, input.role);
      if (!updated) throw resourceNotFound('member', input.userId);
      return updated;
    });
  }
}
