import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import type { User } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { assertKeepsAdministrator, assertMayManage, isAdministrator } from './membership-rules';
import type { OrganizationsPorts } from './organizations-deps';

/**
 * The checks shared by a role change, a removal or suspension (`to: null`) and an activation
 * (`to: undefined`: the role stays). Must run inside a transaction: the organization lock makes
 * concurrent changes in one organization queue, so two admins demoting each other cannot both
 * pass the "last administrator" count. Only active administrators count: a suspended one
 * administers nothing, and changing them takes nothing away. The last sys_admin of the whole
 * system cannot step down, be suspended or be removed either: nobody could make another one but
 * the CLI.
 */
export async function guardMemberChange(
  ports: Pick<OrganizationsPorts, 'users' | 'organizations'>,
  caller: Caller,
  userId: number,
  to: RoleName | null | undefined,
): Promise<User> {
  await ports.organizations.lock(caller.organizationId);
  const target = await ports.users.findById(userId);
  // A user of another organization is indistinguishable from a missing one.
  if (!target || target.organizationId !== caller.organizationId) throw resourceNotFound('member', userId);
  assertMayManage(caller.role, target.role);
  if (to !== undefined && target.status === 'active' && isAdministrator(target.role)) {
    const administrators =
      (await ports.users.countByRole(caller.organizationId, 'org_admin')) +
      (await ports.users.countByRole(caller.organizationId, 'sys_admin'));
    assertKeepsAdministrator(target.role, to, administrators);
  }
  if (to !== undefined && target.role === 'sys_admin' && to !== 'sys_admin' && (await ports.users.countSysAdmins()) <= 1) {
    throw new DomainError('LAST_ORG_ADMIN', 'The system must keep at least one sys_admin', { role: 'sys_admin' });
  }
  return target;
}
