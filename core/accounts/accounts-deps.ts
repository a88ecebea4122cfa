import type { Clock } from '../shared/clock.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { EmailOutbox } from '../email/email-outbox.port';
import type { Logger } from '../shared/logger.port';
import type { PasswordHasher, SecretBox, TokenGenerator, TokenHasher } from './crypto.port';
import type { IdentityLinkRepository } from './identity-link-repository.port';
import type { IdentityProvider } from './identity-provider.port';
import type { PendingInvitations } from './idp-login';
import type { IdpLoginFlowStore } from './idp-login-flow-store.port';
import type { StateSigner } from './state-signer.port';
import type { OneTimeTokenStore } from './one-time-token-store.port';
import type { OrganizationRepository } from './organization-repository.port';
import type { SessionStore } from './session-store.port';
import type { UserRepository } from './user-repository.port';
import type { SessionIssuer } from './session-issuer';
import type { RateLimiter } from '../shared/rate-limiter.port';
import type { SessionActivity } from './session-activity';
import type { LoginThrottle } from './login-throttle';
import type { SignInCompletion } from './sign-in-completion.port';
import type { AuditLog } from '../audit/audit-log.port';
import type { FailedSignIns } from './failed-sign-ins';

/** Every port the accounts use cases draw on; each use case takes the `Pick` it needs. */
export interface AccountsPorts {
  users: UserRepository;
  organizations: OrganizationRepository;
  sessions: SessionStore;
  tokens: OneTimeTokenStore;
  passwordHasher: PasswordHasher;
  tokenGenerator: TokenGenerator;
  tokenHasher: TokenHasher;
  clock: Clock;
  outbox: EmailOutbox;
  unitOfWork: UnitOfWork;
  /** Counters shared by every instance: per-account login throttling lives here. */
  rateLimiter: RateLimiter;
  /** Sign-ins, sign-outs and credential changes are recorded in the organization's audit log. */
  audit: AuditLog;
}

/**
 * What an accounts use case is built from: the ports, the settings and the session issuer. Every
 * use case takes one `deps` object, the `Pick` of this it needs.
 */
export interface AccountsDeps extends AccountsPorts {
  settings: AccountsSettings;
  sessionIssuer: SessionIssuer;
  /** Keeps `lastSeenAt` current off the request path. */
  sessionActivity: SessionActivity;
  loginThrottle: LoginThrottle;
  /** Ends a first-factor sign-in: a session, or a second-factor challenge. */
  signInCompletion: SignInCompletion;
  /** Records `login.failed` of existing accounts off the request's path. */
  failedSignIns: FailedSignIns;
}

export interface AccountsSettings {
  mode: 'b2c' | 'b2b';
  /** Session lifetime, server-side and in the cookie. */
  sessionMaxAgeSeconds: number;
  appName: string;
  baseWebUrl: string;
}

export interface IdpLoginPorts
  extends Pick<AccountsPorts, 'users' | 'organizations' | 'sessions' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'unitOfWork' | 'audit'> {
  provider: IdentityProvider;
  stateSigner: StateSigner;
  flows: IdpLoginFlowStore;
  links: IdentityLinkRepository;
  /** Seals the PKCE verifier and the nonce under the flow key, which only the signed state carries. */
  secretBox: SecretBox;
  /** Absent: in B2B every unknown email is refused. */
  invitations?: PendingInvitations;
}

/** What the identity-provider use cases are built from; each takes the `Pick` it needs as its one `deps`. */
export interface IdpLoginDeps extends IdpLoginPorts {
  settings: Pick<AccountsSettings, 'mode'>;
  /** A session, or a second-factor challenge for a user with MFA. */
  signInCompletion: SignInCompletion;
  failedSignIns: FailedSignIns;
  logger: Logger;
}

export const VERIFY_EMAIL_TTL_SECONDS = 24 * 3600;
export const RESET_PASSWORD_TTL_SECONDS = 3600;
export const EMAIL_LINK_TTL_SECONDS = 15 * 60;
