import type { PasswordHasher, TokenGenerator, TokenHasher } from '../accounts/crypto.port';
import type { SessionStore } from '../accounts/session-store.port';
import type { UserRepository } from '../accounts/user-repository.port';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { Clock } from '../shared/clock.port';
import type { RateLimiter } from '../shared/rate-limiter.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { MfaChallengeStore } from './mfa-challenge-store.port';
import type { MfaRepository } from './mfa-repository.port';
import type { RecoveryCodeGenerator } from './recovery-codes';
import type { AtRestEncryption } from '../shared/at-rest-encryption.port';
import type { TotpVerifier } from './totp-verifier.port';
import type { SessionIssuer } from '../accounts/session-issuer';
import type { LoginThrottle } from '../accounts/login-throttle';
import type { SecondFactorThrottle } from './second-factor-throttle';
import type { AuditLog } from '../audit/audit-log.port';
import type { FailedSignIns } from '../accounts/failed-sign-ins';

/** Every port the MFA use cases draw on; each takes the `Pick` it needs. */
export interface MfaPorts {
  users: UserRepository;
  organizations: OrganizationRepository;
  sessions: SessionStore;
  mfa: MfaRepository;
  challenges: MfaChallengeStore;
  totp: TotpVerifier;
  atRestEncryption: AtRestEncryption;
  recoveryCodes: RecoveryCodeGenerator;
  passwordHasher: PasswordHasher;
  tokenGenerator: TokenGenerator;
  tokenHasher: TokenHasher;
  rateLimiter: RateLimiter;
  clock: Clock;
  unitOfWork: UnitOfWork;
  audit: AuditLog;
}

/** What an MFA use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface MfaDeps extends MfaPorts {
  settings: MfaSettings;
  sessionIssuer: SessionIssuer;
  loginThrottle: LoginThrottle;
  secondFactorThrottle: SecondFactorThrottle;
  /** Records `login.failed` for wrong codes, off the request's path. */
  failedSignIns: FailedSignIns;
}

export interface MfaSettings {
  /** Shown by authenticator apps next to the account (`APP_NAME`). */
  issuer: string;
}

/** Codes of the current step and of one step either side are accepted (clock drift, slow typing). */
export const TOTP_WINDOW = 1;
/** How long a sign-in waits for its second factor. */
export const CHALLENGE_TTL_SECONDS = 300;
/** Codes one challenge may try; then it is void and the sign-in starts over (the account's own bound is SecondFactorThrottle's). */
export const MAX_CHALLENGE_ATTEMPTS = 5;

/** The associated data that ties a sealed TOTP secret to its user. */
export const totpSecretContext = (userId: number): string => `totp-secret:user:${userId}`;
