import { DomainError } from '../shared/domain-error';
import type { AccountsDeps } from './accounts-ports';
import type { IssuedSession } from './session-issuer';
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
    private readonly deps: Pick<AccountsDeps, 'users' | 'organizations' | 'sessions' | 'passwordHasher' | 'tokenHasher' | 'sessionIssuer'>,
  ) {}

  async execute(input: LoginInput): Promise<IssuedSession & { userId: number }> {
    const user = await this.deps.users.findByEmail(normalizeEmail(input.email));
    const passwordOk = await this.deps.passwordHasher.verify(input.password, user?.passwordHash ?? null);
    if (!user || !passwordOk) throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password');
    const organization = await this.deps.organizations.findById(user.organizationId);
    if (user.status !== 'active' || organization?.status !== 'active') {
      throw new DomainError('ACCOUNT_SUSPENDED', 'This account is suspended');
    }
    if (!user.emailVerified) throw new DomainError('EMAIL_NOT_VERIFIED', 'Verify your email address before logging in');
    if (input.presentedToken) {
      const previous = await this.deps.sessions.findByTokenHash(this.deps.tokenHasher.hash(input.presentedToken));
      if (previous) await this.deps.sessions.revoke(previous.sessionId);
    }
    const session = await this.deps.sessionIssuer.issue(user.id);
    return { ...session, userId: user.id };
  }
}
