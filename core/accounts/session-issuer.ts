import { addSeconds, type Clock } from '../shared/clock.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import { userActor } from '../audit/audit-actor';
import type { AuditLog } from '../audit/audit-log.port';
import type { TokenGenerator, TokenHasher } from './crypto.port';
import type { SessionOrigin, SessionStore } from './session-store.port';

/**
 * How a sign-in was made, as its audit events say: the first factor, or, for the second step of
 * a sign-in with two-factor authentication, the second factor that completed it.
 */
export type SignInMethod = 'password' | 'idp' | 'passkey' | 'email_link' | 'totp' | 'recovery_code';

/** Who is signing in, read when their credentials were checked. */
export interface SignIn {
  userId: number;
  organizationId: number;
  /** The user's, as read when the credentials were checked (see SessionStore.create). */
  credentialsVersion: number;
  method: SignInMethod;
}

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
 * Every session is a sign-in: its `login.succeeded` event is written in the same transaction
 * (joining the caller's when there is one), so there is no session without its event.
 */
export class SessionIssuer {
  constructor(
    // Typed from the ports themselves: AccountsDeps holds a SessionIssuer, so naming it here would loop.
    private readonly ports: { sessions: SessionStore; tokenGenerator: TokenGenerator; tokenHasher: TokenHasher; clock: Clock; unitOfWork: UnitOfWork; audit: AuditLog },
    private readonly maxAgeSeconds: number,
  ) {}

  /** `viaPasskey`: the sign-in was a passkey with user verification (see SessionPrincipal). */
  async issue(signIn: SignIn, origin: SessionOrigin = { userAgent: null, ip: null }, options: { viaPasskey?: boolean } = {}): Promise<IssuedSession | null> {
    const token = this.ports.tokenGenerator.generate();
    const now = this.ports.clock.now();
    const expiresAt = addSeconds(now, this.maxAgeSeconds);
    const from = sessionOrigin(origin.userAgent, origin.ip);
    // Two statements in one transaction: the session, then its event (whose actor's name the
    // event's insert reads itself), and nothing else on the sign-in's path.
    return this.ports.unitOfWork.transaction(async () => {
      const created = await this.ports.sessions.create({
        userId: signIn.userId,
        tokenHash: this.ports.tokenHasher.hash(token),
        createdAt: now,
        expiresAt,
        ...from,
        credentialsVersion: signIn.credentialsVersion,
        viaPasskey: options.viaPasskey ?? false,
      });
      if (!created) return null;
      await this.ports.audit.record({
        organizationId: signIn.organizationId,
        action: 'login.succeeded',
        actor: userActor(signIn.userId),
        target: { type: 'session', id: String(created.id) },
        origin: { ip: from.ip, userAgent: from.userAgent },
        details: { method: signIn.method },
      });
      return { token, sessionId: created.id, expiresAt };
    });
  }
}
