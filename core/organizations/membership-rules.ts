import { precedenceOf, satisfies, type RoleName } from '../access/role';
import { accessDenied } from '../access/require-role';
import { DomainError } from '../shared/domain-error';

/**
 * The membership invariants as pure functions, so they can be tested (and property-tested)
 * without any storage. The use cases call the `assert*` forms.
 *
 * An administrator is whoever may manage members: `org_admin`, and `sys_admin` above it (the
 * role guard is precedence-based, so a sys_admin is an org_admin too). "The last org_admin" is
 * therefore the last administrator: this also keeps a system organization from losing its
 * only sys_admin.
 */
export const isAdministrator = (role: RoleName): boolean => satisfies(role, 'org_admin');

/** Nobody grants a role above their own, by role change or by invitation; only a sys_admin grants sys_admin. */
export const mayGrant = (granter: RoleName, role: RoleName): boolean =>
  precedenceOf(role) <= precedenceOf(granter) && (role !== 'sys_admin' || granter === 'sys_admin');

/** Nobody changes the role of, or removes, a member ranked above them. */
export const mayManage = (manager: RoleName, target: RoleName): boolean => precedenceOf(target) <= precedenceOf(manager);

/**
 * Whether moving one member from role `from` to `to` (`null`: removing them) would leave an
 * organization that has `administrators` administrators (the member included) without one.
 */
export const leavesNoAdministrator = (from: RoleName, to: RoleName | null, administrators: number): boolean =>
  isAdministrator(from) && (to === null || !isAdministrator(to)) && administrators <= 1;

export function assertMayGrant(granter: RoleName, role: RoleName): void {
  if (!mayGrant(granter, role)) throw accessDenied('You cannot grant a role above your own', { role });
}

export function assertMayManage(manager: RoleName, target: RoleName): void {
  if (!mayManage(manager, target)) throw accessDenied('You cannot manage a member ranked above you');
}

export function assertKeepsAdministrator(from: RoleName, to: RoleName | null, administrators: number): void {
  if (leavesNoAdministrator(from, to, administrators)) {
    throw new DomainError('LAST_ORG_ADMIN', 'The organization must keep at least one org_admin');
  }
}
