import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';
import { eventBy } from '../audit/audit-actor';

/**
 * Ends every session of the caller except the one in use; returns how many. When there were any,
 * one `session.revoked` event says how many (no target: they were all the caller's others).
 */
export class RevokeOtherSessions {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: UserCaller): Promise<{ revoked: number }> {
    const revoked = await this.deps.unitOfWork.transaction(async () => {
      const count = await this.deps.sessions.revokeAllForUser(caller.userId, caller.sessionId);
      if (count > 0) await this.deps.audit.record(eventBy(caller, 'session.revoked', null, { others: true, revoked: count }));
      return count;
    });
    return { revoked };
  }
}
