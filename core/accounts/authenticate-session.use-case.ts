import { DomainError } from '../shared/domain-error';
import type { AccountsPorts } from './accounts-ports';
import type { Caller } from './caller';

/** 43 base64url characters: the only shape a session token can have. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const unauthorized = () => new DomainError('UNAUTHORIZED', 'Authentication required');

/**
 * Resolves the caller from a session token. Missing, malformed, unknown, expired or revoked
 * sessions, and sessions of suspended users or organizations, all get the same UNAUTHORIZED.
 */
export class AuthenticateSession {
  constructor(private readonly deps: Pick<AccountsPorts, 'sessions' | 'tokenHasher' | 'clock'>) {}

  async execute(token: string | undefined): Promise<Caller> {
    if (!token || !TOKEN_SHAPE.test(token)) throw unauthorized();
    const principal = await this.deps.sessions.findByTokenHash(this.deps.tokenHasher.hash(token));
    if (
      !principal ||
      this.deps.clock.now().getTime() >= principal.expiresAt.getTime() ||
      principal.userStatus !== 'active' ||
      principal.organizationStatus !== 'active'
    ) {
      throw unauthorized();
    }
    return {
      userId: principal.userId,
      organizationId: principal.organizationId,
      role: principal.role,
      sessionId: principal.sessionId,
    };
  }
}
