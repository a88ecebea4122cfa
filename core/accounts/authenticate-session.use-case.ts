import { DomainError } from '../shared/domain-error';
import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';

/** 43 base64url characters: the only shape a session token can have. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const unauthorized = () => new DomainError('UNAUTHORIZED', 'Authentication required');

/**
 * Resolves the caller from a session token. Missing, malformed, unknown, expired or revoked
 * sessions, sessions made before the user's password last changed, and sessions of suspended
 * users or organizations, all get the same UNAUTHORIZED. A session last seen more than the
 * activity interval ago gets its `lastSeenAt` refreshed in the background (the request does not
 * wait for that write). An organization's MFA requirement is met by a user with TOTP on, or by a
 * session a passkey sign-in made (the passkey was both factors).
 */
export class AuthenticateSession {
  /** Without `sessionActivity` (a CLI, a test), `lastSeenAt` is left as it is. */
  constructor(private readonly deps: Pick<AccountsDeps, 'sessions' | 'tokenHasher' | 'clock'> & Partial<Pick<AccountsDeps, 'sessionActivity'>>) {}

  async execute(token: string | undefined): Promise<UserCaller> {
    if (!token || !TOKEN_SHAPE.test(token)) throw unauthorized();
    const principal = await this.deps.sessions.findByTokenHash(this.deps.tokenHasher.hash(token));
    const now = this.deps.clock.now();
    if (
      !principal ||
      now.getTime() >= principal.expiresAt.getTime() ||
      principal.userStatus !== 'active' ||
      principal.organizationStatus !== 'active' ||
      principal.credentialsVersion !== principal.userCredentialsVersion
    ) {
      throw unauthorized();
    }
    if (this.deps.sessionActivity?.isStale(principal.lastSeenAt, now)) this.deps.sessionActivity.touch(principal.sessionId, now);
    return {
      kind: 'user',
      userId: principal.userId,
      organizationId: principal.organizationId,
      role: principal.role,
      sessionId: principal.sessionId,
      mfaSatisfied: !principal.organizationRequiresMfa || principal.userHasMfa || principal.viaPasskey,
    };
  }
}
