import type { Clock } from '../shared/clock.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { EmailOutbox } from '../email/email-outbox.port';
import type { PasswordHasher, TokenGenerator, TokenHasher } from './crypto.port';
import type { OneTimeTokenStore } from './one-time-token-store.port';
import type { OrganizationRepository } from './organization-repository.port';
import type { SessionStore } from './session-store.port';
import type { UserRepository } from './user-repository.port';
import type { SessionIssuer } from './session-issuer';
import type { RateLimiter } from '../shared/rate-limiter.port';
import type { SessionActivity } from './session-activity';
import type { LoginThrottle } from './login-throttle';
import type { SignInCompletion } from './sign-in-completion.port';

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
}

export interface AccountsSettings {
  mode: 'b2c' | 'b2b';
  /** Session lifetime, server-side and in the cookie. */
  sessionMaxAgeSeconds: number;
  appName: string;
  baseWebUrl: string;
}

export const VERIFY_EMAIL_TTL_SECONDS = 24 * 3600;
export const RESET_PASSWORD_TTL_SECONDS = 3600;
