import type { TokenGenerator, TokenHasher } from '../accounts/crypto.port';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { SessionIssuer } from '../accounts/session-issuer';
import type { SessionStore } from '../accounts/session-store.port';
import type { UserRepository } from '../accounts/user-repository.port';
import type { Clock } from '../shared/clock.port';
import type { PasskeyChallengeStore } from './passkey-challenge-store.port';
import type { PasskeyRepository } from './passkey-repository.port';
import type { RelyingParty } from './relying-party.port';
import type { AuditLog } from '../audit/audit-log.port';
import type { FailedSignIns } from '../accounts/failed-sign-ins';
import type { LoginThrottle } from '../accounts/login-throttle';
import type { UnitOfWork } from '../shared/unit-of-work.port';

/** Every port and helper the passkey use cases draw on; each takes the `Pick` it needs as its one `deps`. */
export interface PasskeysDeps {
  passkeys: PasskeyRepository;
  challenges: PasskeyChallengeStore;
  relyingParty: RelyingParty;
  users: UserRepository;
  organizations: OrganizationRepository;
  sessions: SessionStore;
  sessionIssuer: SessionIssuer;
  tokenGenerator: TokenGenerator;
  tokenHasher: TokenHasher;
  clock: Clock;
  /** A passkey added or removed is recorded in the same transaction as the change. */
  unitOfWork: UnitOfWork;
  audit: AuditLog;
  /** The per-account failure counter password logins share: a passkey sign-in counts against it too. */
  loginThrottle: LoginThrottle;
  /** Records `login.failed` of known accounts, off the request's path. */
  failedSignIns: FailedSignIns;
}
