import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';
import type { SessionSummary } from './session-store.port';

export interface ListedSession extends SessionSummary {
  /** The session this request came with. */
  current: boolean;
}

/** The caller's live sessions, newest first, the one in use marked `current`, one page at a time. */
export class ListSessions {
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions' | 'clock'>) {}

  async execute(caller: UserCaller, input: PageRequest): Promise<Page<ListedSession>> {
    const now = this.deps.clock.now();
    const page = await readPage(input, (window) => this.deps.sessions.listLiveForUser(caller.userId, now, window));
    return { items: page.items.map((session) => ({ ...session, current: session.id === caller.sessionId })), nextCursor: page.nextCursor };
  }
}
