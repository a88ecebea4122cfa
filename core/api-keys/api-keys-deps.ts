import type { TokenGenerator, TokenHasher } from '../accounts/crypto.port';
import type { AuditLog } from '../audit/audit-log.port';
import type { Clock } from '../shared/clock.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { ThrottledActivity } from '../shared/throttled-activity';
import type { ApiKeyRepository } from './api-key-repository.port';

/** What an API-key use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface ApiKeysDeps {
  apiKeys: ApiKeyRepository;
  tokenGenerator: TokenGenerator;
  tokenHasher: TokenHasher;
  clock: Clock;
  /** Creation and revocation record `api_key.created` / `api_key.revoked` in the same transaction. */
  audit: AuditLog;
  unitOfWork: UnitOfWork;
  /** Keeps `lastUsedAt` current off the request's path (see ApiKeyRepository.recordUse). */
  keyActivity: ThrottledActivity;
}
