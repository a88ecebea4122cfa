import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';
import { eventBy } from '../audit/audit-actor';

/** Revokes the caller's current session (the cookie is cleared by the HTTP layer), recording `logout` with it. */
export class Logout {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: UserCaller): Promise<void> {
    await this.deps.unitOfWork.transaction(async () => {
      await this.deps.sessions.revoke(caller.sessionId);
      await this.deps.audit.record(eventBy(caller, 'logout', { type: 'session', id: String(caller.sessionId) }));
    });
  }
}
