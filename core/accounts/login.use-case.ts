import { DomainError } from '../shared/domain-error';
import type { AccountsPorts } from './accounts-ports';
import type { SessionIssuer, IssuedSession } from './session-issuer';
import { normalizeEmail } from './user';

export interface LoginInput {
  email: string;
  password: string;
  /** The session token the browser already presented, if any: revoked before the new one is issued. */
  presentedToken?: string | undefined;
}

/**
 * Email + password login. The password is checked first, and an unknown email spends the same
 * hashing time, so neither the answer nor its timing tells whether the account exists. Only a
 * correct password reveals suspension or an unverified email. Every login gets a new token.
 */
export class Login {
  constructor(
    private readonly ports: Pick<AccountsPorts, 'users' | 'organizations' | 'sessions' | 'passwordHasher' | 'tokenHasher'>,
    private readonly sessions: SessionIssuer,
  ) {}

  async execute(input: LoginInput): Promise<IssuedSession & { userId: number }> {
    const user = await this.ports.users.findByEmail(normalizeEmail(input.email));
    const passwordOk = await this.ports.passwordHasher.verify(input.password, user?.passwordHash ?? null);
    if (!user || !passwordOk) throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password');
    const organization = await this.ports.organizations.findById(user.organizationId);
    if (user.status !== 'active' || organization?.status !== 'active') {
      throw new DomainError('ACCOUNT_SUSPENDED', 'This account is suspended');
    }
    if (!user.emailVerified) throw new DomainError('EMAIL_NOT_VERIFIED', 'Verify your email address before logging in');
    if (input.presentedToken) {
      const previous = await this.ports.sessions.findByTokenHash(this.ports.tokenHasher.hash(input.presentedToken));
      if (previous) await this.ports.sessions.revoke(previous.sessionId);
    }
    const session = await this.sessions.issue(user.id);
    return { ...session, userId: user.id };
  }
}
