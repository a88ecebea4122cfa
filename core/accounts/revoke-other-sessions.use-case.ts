import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';

/** Ends every session of the caller except the one in use; returns how many. */
export class RevokeOtherSessions {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions'>) {}

  async execute(caller: UserCaller): Promise<{ revoked: number }> {
    return { revoked: await this.deps.sessions.revokeAllForUser(caller.userId, caller.sessionId) };
  }
}
