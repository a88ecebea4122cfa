import type { TokenHasher } from './crypto.port';
import type { SessionStore } from './session-store.port';

/**
 * Every sign-in makes a new session token (no fixation): the session the browser already
 * presented, if any, is revoked before the new one is issued.
 */
export async function revokePresentedSession(ports: { sessions: SessionStore; tokenHasher: TokenHasher }, presentedToken: string | undefined): Promise<void> {
  if (!presentedToken) return;
  const previous = await ports.sessions.findByTokenHash(ports.tokenHasher.hash(presentedToken));
  if (previous) await ports.sessions.revoke(previous.sessionId);
}
