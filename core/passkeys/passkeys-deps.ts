import type { TokenGenerator, TokenHasher } from '../accounts/crypto.port';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { SessionIssuer } from '../accounts/session-issuer';
import type { SessionStore } from '../accounts/session-store.port';
import type { UserRepository } from '../accounts/user-repository.port';
import type { Clock } from '../shared/clock.port';
import type { PasskeyChallengeStore } from './passkey-challenge-store.port';
import type { PasskeyRepository } from './passkey-repository.port';
import type { RelyingParty } from './relying-party.port';

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
}
