import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';

/** Revokes the caller's current session (the cookie is cleared by the HTTP layer). */
export class Logout {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions'>) {}

  async execute(caller: UserCaller): Promise<void> {
    await this.deps.sessions.revoke(caller.sessionId);
  }
}
