import { addSeconds, type Clock } from '../shared/clock.port';
import type { TokenGenerator, TokenHasher } from './crypto.port';
import type { SessionOrigin, SessionStore } from './session-store.port';

export interface IssuedSession {
  /** The bearer secret: goes into the cookie and nowhere else. */
  token: string;
  sessionId: number;
  expiresAt: Date;
}

/** A user agent is kept to its first 255 characters (code points, as the column counts them). */
export const USER_AGENT_MAX_LENGTH = 255;

export function sessionOrigin(userAgent: string | undefined | null, ip: string | undefined | null): SessionOrigin {
  const agent = userAgent ? Array.from(userAgent).slice(0, USER_AGENT_MAX_LENGTH).join('') : '';
  return { userAgent: agent === '' ? null : agent, ip: ip || null };
}

/**
 * Creates a session with a fresh 256-bit token; only the token's hash is stored. Null when the
 * user is gone or their credentials changed since `credentialsVersion` was read (see SessionStore).
 */
export class SessionIssuer {
  constructor(
    // Typed from the ports themselves: AccountsDeps holds a SessionIssuer, so naming it here would loop.
    private readonly ports: { sessions: SessionStore; tokenGenerator: TokenGenerator; tokenHasher: TokenHasher; clock: Clock },
    private readonly maxAgeSeconds: number,
  ) {}

  /** `viaPasskey`: the sign-in was a passkey with user verification (see SessionPrincipal). */
  async issue(
    userId: number,
    credentialsVersion: number,
    origin: SessionOrigin = { userAgent: null, ip: null },
    options: { viaPasskey?: boolean } = {},
  ): Promise<IssuedSession | null> {
    const token = this.ports.tokenGenerator.generate();
    const now = this.ports.clock.now();
    const expiresAt = addSeconds(now, this.maxAgeSeconds);
    const created = await this.ports.sessions.create({
      userId,
      tokenHash: this.ports.tokenHasher.hash(token),
      createdAt: now,
      expiresAt,
      ...sessionOrigin(origin.userAgent, origin.ip),
      credentialsVersion,
      viaPasskey: options.viaPasskey ?? false,
    });
    return created ? { token, sessionId: created.id, expiresAt } : null;
  }
}
