import { resourceNotFound } from '../shared/domain-error';
import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';
import { eventBy } from '../audit/audit-actor';

/**
 * Ends one of the caller's sessions (the current one included: that is a logout). Another
 * user's session id, or one that no longer exists, is RESOURCE_NOT_FOUND: the two are
 * indistinguishable, so ids of other users' sessions cannot be probed. Records `session.revoked`.
 */
export class RevokeSession {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: UserCaller, input: { sessionId: number }): Promise<{ revokedCurrent: boolean }> {
    const revokedCurrent = input.sessionId === caller.sessionId;
    await this.deps.unitOfWork.transaction(async () => {
      if (!(await this.deps.sessions.revokeOwned(caller.userId, input.sessionId))) throw resourceNotFound('session', input.sessionId);
      await this.deps.audit.record(eventBy(caller, 'session.revoked', { type: 'session', id: String(input.sessionId) }, { current: revokedCurrent }));
    });
    return { revokedCurrent };
  }
}
