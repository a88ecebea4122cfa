import type { Caller } from '../access/caller';
import type { AccountStatus, User } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { guardMemberChange } from './member-change';
import { requireRole } from '../access/require-role';
import type { OrganizationsDeps } from './organizations-deps';

/**
 * Suspends or reactivates a member of the caller's organization. A suspended member cannot log
 * in (ACCOUNT_SUSPENDED with the right password) and their sessions are revoked at once. Nobody
 * suspends themselves, a member ranked above them, or the last active administrator
 * (LAST_ORG_ADMIN). Both directions are idempotent.
 */
abstract class SetMemberStatus {
  protected abstract readonly status: AccountStatus;

  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'sessions' | 'unitOfWork'>) {}

  async execute(caller: Caller, input: { userId: number }): Promise<User> {
    requireRole(caller, 'org_admin');
    if (input.userId === caller.userId) throw new DomainError('ACCESS_DENIED', 'You cannot suspend or activate yourself');
    return this.deps.unitOfWork.transaction(async () => {
      // A suspension takes the member out of the administrators, as a removal would.
      await guardMemberChange(this.deps, caller, input.userId, this.status === 'suspended' ? null : undefined);
      const updated = await this.deps.users.setStatus(caller.organizationId, input.userId, this.status);
      if (!updated) throw resourceNotFound('member', input.userId);
      if (this.status === 'suspended') await this.deps.sessions.revokeAllForUser(input.userId);
      return updated;
    });
  }
}

export class SuspendMember extends SetMemberStatus {
  protected readonly status = 'suspended';
}

export class ActivateMember extends SetMemberStatus {
  protected readonly status = 'active';
}
