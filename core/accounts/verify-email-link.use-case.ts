import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';
import { revokePresentedSession } from './presented-session';
import type { SignInOutcome } from './sign-in-completion.port';
import type { SessionOrigin } from './session-store.port';
import type { User } from './user';

export interface VerifyEmailLinkInput {
  /** The token of the emailed link. */
  token: string;
  /** The session token the browser already presented, if any: revoked before the new one is issued. */
  presentedToken?: string | undefined;
  origin?: SessionOrigin;
}

/**
 * Signs in with an emailed link: the token (single use, 15 minutes) is spent, the email counts
 * as verified (the link proves the mailbox), and the sign-in ends as a password login does —
 * a session (recording `login.succeeded`, method `email_link`), or a second-factor challenge for
 * a user with MFA on. The link stands for the password, not for both factors.
 *
 * All in one transaction: an answer other than a sign-in (a suspended account, a second factor
 * throttled) leaves the token unspent and the email as it was. A suspended account's attempt
 * records `login.failed` once the transaction is over, off the request's path; a token that
 * names nobody (unknown, used, expired) belongs to no account and records nothing.
 */
export class VerifyEmailLink {
  constructor(
    private readonly deps: Pick<AccountsDeps, 'tokens' | 'tokenHasher' | 'users' | 'organizations' | 'sessions' | 'clock' | 'unitOfWork' | 'signInCompletion' | 'failedSignIns'>,
  ) {}

  async execute(input: VerifyEmailLinkInput): Promise<SignInOutcome> {
    let suspended: User | undefined;
    try {
      return await this.deps.unitOfWork.transaction(async () => {
        const userId = await this.deps.tokens.consume('email_link_sign_in', this.deps.tokenHasher.hash(input.token), this.deps.clock.now());
        const user = userId === null ? null : await this.deps.users.findById(userId);
        if (!user) throw new DomainError('INVALID_TOKEN', 'This link is invalid or has expired');
        const organization = await this.deps.organizations.findById(user.organizationId);
        if (user.status !== 'active' || organization?.status !== 'active') {
          suspended = user;
          throw new DomainError('ACCOUNT_SUSPENDED', 'This account is suspended');
        }
        await this.deps.users.markEmailVerified(user.id);
        await revokePresentedSession(this.deps, input.presentedToken);
        return this.deps.signInCompletion.complete(
          { userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method: 'email_link' },
          input.origin,
        );
      });
    } catch (error) {
      if (suspended) {
        this.deps.failedSignIns.record({ userId: suspended.id, organizationId: suspended.organizationId, method: 'email_link', reason: 'account_suspended', origin: input.origin });
      }
      throw error;
    }
  }
}
