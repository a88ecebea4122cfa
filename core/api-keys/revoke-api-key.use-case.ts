import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { resourceNotFound } from '../shared/domain-error';
import type { ApiKeysDeps } from './api-keys-deps';

/**
 * Revokes a key for good. Every request authenticates its key anew, so the next request that
 * presents it is refused. Another organization's key is as missing as an unknown one.
 */
export class RevokeApiKey {
  constructor(private readonly deps: Pick<ApiKeysDeps, 'apiKeys'>) {}

  async execute(caller: Caller, input: { apiKeyId: number }): Promise<void> {
    requireRole(caller, 'org_admin');
    if (!(await this.deps.apiKeys.revoke(caller.organizationId, input.apiKeyId))) throw resourceNotFound('api_key', input.apiKeyId);
  }
}
