import type { Caller } from '../accounts/caller';
import type { RoleName } from '../accounts/role';
import type { User } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { assertKeepsAdministrator, assertMayManage, isAdministrator } from './membership-rules';
import type { OrganizationsPorts } from './organizations-ports';

/**
 * The checks shared by a role change and a removal (`to: null`). Must run inside a transaction:
 * the organization lock makes concurrent changes in one organization queue, so two admins
 * demoting each other cannot both pass the "last administrator" count. The last sys_admin of the
 * whole system cannot step down or be removed either: nobody could make another one but the CLI.
 */
export async function guardMemberChange(
  ports: Pick<OrganizationsPorts, 'users' | 'organizations'>,
  caller: Caller,
  userId: number,
  to: RoleName | null,
): Promise<User> {
  await ports.organizations.lock(caller.organizationId);
  const target = await ports.users.findById(userId);
  // A user of another organization is indistinguishable from a missing one.
  if (!target || target.organizationId !== caller.organizationId) throw resourceNotFound('member', userId);
  assertMayManage(caller.role, target.role);
  if (isAdministrator(target.role)) {
    const administrators =
      (await ports.users.countByRole(caller.organizationId, 'org_admin')) +
      (await ports.users.countByRole(caller.organizationId, 'sys_admin'));
    assertKeepsAdministrator(target.role, to, administrators);
  }
  if (target.role === 'sys_admin' && to !== 'sys_admin' && (await ports.users.countSysAdmins()) <= 1) {
    throw new DomainError('LAST_ORG_ADMIN', 'The system must keep at least one sys_admin', { role: 'sys_admin' });
  }
  return target;
}
