import type { ApiKeyCaller } from '../access/caller';
import { DomainError } from '../shared/domain-error';
import { API_KEY_SHAPE } from './api-key';
import type { ApiKeysDeps } from './api-keys-deps';

/** `lastUsedAt` is written at most this often per key. */
export const API_KEY_ACTIVITY_INTERVAL_MS = 60_000;

const unauthorized = () => new DomainError('UNAUTHORIZED', 'Authentication required');

/**
 * Resolves the caller from an API key. Malformed, unknown, revoked and expired keys, and keys of
 * a suspended organization, all get the same UNAUTHORIZED. The key acts for its organization
 * with its own role; an organization's MFA requirement does not apply to it (it is about how
 * members sign in). A key last used more than the activity interval ago gets `lastUsedAt`
 * refreshed in the background: the request does not wait for that write.
 */
export class AuthenticateApiKey {
  constructor(private readonly deps: Pick<ApiKeysDeps, 'apiKeys' | 'tokenHasher' | 'clock'> & Partial<Pick<ApiKeysDeps, 'keyActivity'>>) {}

  async execute(key: string): Promise<ApiKeyCaller> {
    if (!API_KEY_SHAPE.test(key)) throw unauthorized();
    const principal = await this.deps.apiKeys.findByHash(this.deps.tokenHasher.hash(key));
    const now = this.deps.clock.now();
    if (!principal || (principal.expiresAt !== null && now.getTime() >= principal.expiresAt.getTime()) || principal.organizationStatus !== 'active') {
      throw unauthorized();
    }
    if (this.deps.keyActivity?.isStale(principal.lastUsedAt, now)) this.deps.keyActivity.touch(principal.apiKeyId, now);
    return { kind: 'api_key', apiKeyId: principal.apiKeyId, organizationId: principal.organizationId, role: principal.role, mfaSatisfied: true };
  }
}
