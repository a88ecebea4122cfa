import type { UserCaller } from '../access/caller';
import { accessDenied, requireRole } from '../access/require-role';
import { satisfies } from '../access/role';
import { DomainError } from '../shared/domain-error';
import { API_KEY_MARKER, API_KEY_PREFIX_LENGTH, type ApiKey, type ApiKeyRole } from './api-key';
import type { ApiKeysDeps } from './api-keys-deps';
import { eventBy } from '../audit/audit-actor';

/** Already validated: `name` trimmed, 1..64 characters, no control characters. */
export interface CreateApiKeyInput {
  name: string;
  role: ApiKeyRole;
  /** Absent: the key never expires. */
  expiresAt?: Date;
}

/** An expiry closer than this is a mistake more often than a wish (a key that dies before it is deployed). */
export const MIN_KEY_LIFETIME_MS = 60 * 60_000;

/** The latest expiry a key may be given at `now`: the same moment one calendar year later. */
export function latestKeyExpiry(now: Date): Date {
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + 1);
  return latest;
}

/**
 * Makes an organization API key: `tk_` then 32 random bytes, shown to the caller this once and
 * stored only as its SHA-256. Its role may not rank above the caller's own (ACCESS_DENIED), so a
 * key never carries more authority than the member who made it had then. Only a member makes
 * keys (the route refuses keys), so a leaked key cannot mint others that outlive its revocation.
 * Records `api_key.created` (its name and role, never the key) in the same transaction.
 */
export class CreateApiKey {
  constructor(private readonly deps: Pick<ApiKeysDeps, 'apiKeys' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'audit' | 'unitOfWork'>) {}

  async execute(caller: UserCaller, input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; key: string }> {
    requireRole(caller, 'org_admin');
    if (!satisfies(caller.role, input.role)) throw accessDenied('You cannot grant a role above your own', { role: input.role });
    const now = this.deps.clock.now();
    if (input.expiresAt) {
      const ahead = input.expiresAt.getTime() - now.getTime();
      if (ahead < MIN_KEY_LIFETIME_MS || input.expiresAt.getTime() > latestKeyExpiry(now).getTime()) {
        throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { expiresAt: 'Must be between 1 hour and 1 year from now' });
      }
    }
    const key = API_KEY_MARKER + this.deps.tokenGenerator.generate();
    const apiKey = await this.deps.unitOfWork.transaction(async () => {
      const created = await this.deps.apiKeys.create({
      organizationId: caller.organizationId,
      name: input.name,
      role: input.role,
      prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      keyHash: this.deps.tokenHasher.hash(key),
      createdByUserId: caller.userId,
      createdAt: now,
      expiresAt: input.expiresAt ?? null,
      });
      await this.deps.audit.record(eventBy(caller, 'api_key.created', { type: 'api_key', id: String(created.id) }, { name: created.name, role: created.role }));
      return created;
    });
    return { apiKey, key };
  }
}
