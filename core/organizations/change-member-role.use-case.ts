import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import type { User } from '../accounts/user';
import { resourceNotFound } from '../shared/domain-error';
import { guardMemberChange } from './member-change';
import { requireRole } from '../access/require-role';
import { assertMayGrant } from './membership-rules';
import { eventBy } from '../audit/audit-actor';

/**
 * Changes a member's role in the caller's organization. Refused: granting above the caller's
 * own role (or sys_admin by anyone but a sys_admin), touching a member ranked above the caller
 * (ACCESS_DENIED), demoting the last administrator (LAST_ORG_ADMIN). The new role applies to the
 * member's open sessions at once: authentication reads it on every request. An actual change
 * commits with its `member.role_changed` event (`{from, to}`); setting the role a member already
 * has changes nothing and records nothing.
 */
export class ChangeMemberRole {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: Caller, input: { userId: number; role: RoleName }): Promise<User> {
    requireRole(caller, 'org_admin');
    assertMayGrant(caller.role, input.role);
    return this.deps.unitOfWork.transaction(async () => {
      const target = await guardMemberChange(this.deps, caller, input.userId, input.role);
      const updated = await this.deps.users.updateRole(caller.organizationId, input.userId, input.role);
      if (!updated) throw resourceNotFound('member', input.userId);
      if (target.role !== updated.role) {
        const member = { type: 'user', id: String(updated.id) };
        await this.deps.audit.record(eventBy(caller, 'member.role_changed', member, { from: target.role, to: updated.role }));
      }
      return updated;
    });
  }
}
