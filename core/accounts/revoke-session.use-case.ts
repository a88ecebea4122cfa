import { resourceNotFound } from '../shared/domain-error';
import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';

/**
 * Ends one of the caller's sessions (the current one included: that is a logout). Another
 * user's session id, or one that no longer exists, is RESOURCE_NOT_FOUND: the two are
 * indistinguishable, so ids of other users' sessions cannot be probed.
 */
export class RevokeSession {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions'>) {}

  async execute(caller: UserCaller, input: { sessionId: number }): Promise<{ revokedCurrent: boolean }> {
    if (!(await this.deps.sessions.revokeOwned(caller.userId, input.sessionId))) throw resourceNotFound('session', input.sessionId);
    return { revokedCurrent: input.sessionId === caller.sessionId };
  }
}
