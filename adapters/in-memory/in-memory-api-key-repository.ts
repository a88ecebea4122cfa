import type { ApiKey, ApiKeyRole } from '../../core/api-keys/api-key';
import type { ApiKeyPrincipal, ApiKeyRepository, NewApiKey, RevokedApiKey } from '../../core/api-keys/api-key-repository.port';
import { newestFirstWindow, type ListWindow } from '../../core/shared/list-page';
import { deleteWhere, type InMemoryStore, type Table } from './in-memory-store';

/** `api_key`: what the SQL table holds. */
interface ApiKeyRow {
  id: number;
  organizationId: number;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  keyHash: string;
  createdByUserId: number | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/**
 * Keys in the shared InMemoryStore, so transactions cover them; deleting an organization deletes
 * its keys and deleting a user clears `createdByUserId`, as the foreign keys do in PostgreSQL.
 */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  private readonly rows: Table<ApiKeyRow>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<ApiKeyRow>('api_key');
    store.onDeleteOrganization((organizationId) => deleteWhere(this.rows, (row) => row.organizationId === organizationId));
    store.onDeleteUser((userId) => {
      for (const row of this.rows.values()) if (row.createdByUserId === userId) row.createdByUserId = null;
    });
  }

  create(key: NewApiKey): Promise<ApiKey> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(key.organizationId)) throw new Error(`Organization ${key.organizationId} does not exist`);
      if (!this.store.users.has(key.createdByUserId)) throw new Error(`User ${key.createdByUserId} does not exist`);
      if ([...this.rows.values()].some((row) => row.keyHash === key.keyHash)) throw new Error('An API key with this hash already exists');
      const row: ApiKeyRow = { ...structuredClone(key), id: this.store.nextId('api_key'), lastUsedAt: null };
      this.rows.set(row.id, row);
      return this.view(row);
    });
  }

  list(organizationId: number, window?: ListWindow): Promise<ApiKey[]> {
    return this.store.unitOfWork.exclusive(() =>
      newestFirstWindow(this.rows.values(), (row) => row.organizationId === organizationId, window).map((row) => this.view(row)),
    );
  }

  revoke(organizationId: number, id: number): Promise<RevokedApiKey | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(id);
      if (row?.organizationId !== organizationId) return null;
      this.rows.delete(id);
      return { id: row.id, name: row.name, role: row.role };
    });
  }

  findById(organizationId: number, id: number): Promise<ApiKey | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(id);
      return row?.organizationId === organizationId ? this.view(row) : null;
    });
  }

  findByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = [...this.rows.values()].find((candidate) => candidate.keyHash === keyHash);
      const organization = row && this.store.organizations.get(row.organizationId);
      if (!row || !organization) return null;
      return {
        apiKeyId: row.id,
        organizationId: row.organizationId,
        role: row.role,
        expiresAt: row.expiresAt && new Date(row.expiresAt),
        lastUsedAt: row.lastUsedAt && new Date(row.lastUsedAt),
        organizationStatus: organization.status,
      };
    });
  }

  recordUse(id: number, at: Date, staleBefore: Date): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(id);
      if (!row || (row.lastUsedAt !== null && row.lastUsedAt.getTime() >= staleBefore.getTime())) return false;
      row.lastUsedAt = new Date(at);
      return true;
    });
  }

  private view(row: ApiKeyRow): ApiKey {
    const creator = row.createdByUserId === null ? undefined : this.store.users.get(row.createdByUserId);
    return {
      id: row.id,
      organizationId: row.organizationId,
      name: row.name,
      role: row.role,
      prefix: row.prefix,
      createdAt: new Date(row.createdAt),
      createdBy: creator ? { id: creator.id, email: creator.email } : null,
      expiresAt: row.expiresAt && new Date(row.expiresAt),
      lastUsedAt: row.lastUsedAt && new Date(row.lastUsedAt),
    };
  }
}
