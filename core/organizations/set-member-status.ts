import type { Caller } from '../access/caller';
import type { AccountStatus, User } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { guardMemberChange } from './member-change';
import type { OrganizationsDeps } from './organizations-deps';
import { eventBy } from '../audit/audit-actor';

/**
 * Suspends or reactivates a member of the caller's organization (the caller is an org_admin). A suspended member cannot log
 * in (ACCOUNT_SUSPENDED with the right password) and their sessions are revoked at once. Nobody
 * suspends themselves, a member ranked above them, or the last active administrator
 * (LAST_ORG_ADMIN). Both directions are idempotent. An actual change commits with its
 * `member.suspended` or `member.activated` event; a repeated one changes nothing and records nothing.
 */
export async function setMemberStatus(deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'sessions' | 'unitOfWork' | 'audit'>, caller: Caller, userId: number, status: AccountStatus): Promise<User> {
  // A key is nobody's user: it has no self to protect.
  if (caller.kind === 'user' && userId === caller.userId) throw new DomainError('ACCESS_DENIED', 'You cannot suspend or activate yourself');
  return deps.unitOfWork.transaction(async () => {
    // A suspension takes the member out of the administrators, as a removal would.
    const target = await guardMemberChange(deps, caller, userId, status === 'suspended' ? null : undefined);
    const updated = await deps.users.setStatus(caller.organizationId, userId, status);
    if (!updated) throw resourceNotFound('member', userId);
    if (status === 'suspended') await deps.sessions.revokeAllForUser(userId);
    if (target.status !== updated.status) {
      const action = status === 'suspended' ? 'member.suspended' : 'member.activated';
      await deps.audit.record(eventBy(caller, action, { type: 'user', id: String(updated.id) }, { from: target.status, to: updated.status }));
    }
    return updated;
  });
}
