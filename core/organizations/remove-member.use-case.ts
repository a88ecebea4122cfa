import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import { guardMemberChange } from './member-change';
import { requireRole } from '../access/require-role';
import { eventBy } from '../audit/audit-actor';

/**
 * Removes a member of the caller's organization: deletes the user, their sessions (so they are
 * logged out at once) and, by cascade, their projects. Nobody removes themselves here, nor a
 * member ranked above them, nor the last administrator. The removal commits with its
 * `member.removed` event, which keeps the removed member's address and role (their row is gone).
 */
export class RemoveMember {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'sessions' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: Caller, input: { userId: number }): Promise<void> {
    requireRole(caller, 'org_admin');
    // A key is nobody's user: it has no self to protect.
    if (caller.kind === 'user' && input.userId === caller.userId) throw new DomainError('ACCESS_DENIED', 'You cannot remove yourself');
    await this.deps.unitOfWork.transaction(async () => {
      const target = await guardMemberChange(this.deps, caller, input.userId, null);
      // The cascade deletes them too; revoking first keeps the promise whatever the storage does.
      await this.deps.sessions.revokeAllForUser(input.userId);
      if (!(await this.deps.users.delete(caller.organizationId, input.userId))) throw resourceNotFound('member', input.userId);
      const member = { type: 'user', id: String(target.id) };
      await this.deps.audit.record(eventBy(caller, 'member.removed', member, { email: target.email, role: target.role }));
    });
  }
}
