import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { resourceNotFound } from '../shared/domain-error';
import type { ApiKeysDeps } from './api-keys-deps';
import { eventBy } from '../audit/audit-actor';

/**
 * Revokes a key for good. Every request authenticates its key anew, so the next request that
 * presents it is refused. Another organization's key is as missing as an unknown one. Records
 * `api_key.revoked` in the same transaction.
 */
export class RevokeApiKey {
  constructor(private readonly deps: Pick<ApiKeysDeps, 'apiKeys' | 'audit' | 'unitOfWork'>) {}

  async execute(caller: Caller, input: { apiKeyId: number }): Promise<void> {
    requireRole(caller, 'org_admin');
    await this.deps.unitOfWork.transaction(async () => {
      const revoked = await this.deps.apiKeys.revoke(caller.organizationId, input.apiKeyId);
      if (!revoked) throw resourceNotFound('api_key', input.apiKeyId, 'API key');
      await this.deps.audit.record(eventBy(caller, 'api_key.revoked', { type: 'api_key', id: String(revoked.id) }, { name: revoked.name, role: revoked.role }));
    });
  }
}
