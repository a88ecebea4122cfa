import type { AccountsDeps } from './accounts-deps';
import type { Caller } from '../access/caller';
import type { SessionSummary } from './session-store.port';

export interface ListedSession extends SessionSummary {
  /** The session this request came with. */
  current: boolean;
}

/** The caller's live sessions, newest first, the one in use marked `current`. */
export class ListSessions {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions' | 'clock'>) {}

  async execute(caller: Caller): Promise<ListedSession[]> {
    const sessions = await this.deps.sessions.listLiveForUser(caller.userId, this.deps.clock.now());
    return sessions.map((session) => ({ ...session, current: session.id === caller.sessionId }));
  }
}
