import type { ApiKey, ApiKeyRole } from '../../core/api-keys/api-key';
import type { ApiKeyPrincipal, ApiKeyRepository, NewApiKey, RevokedApiKey } from '../../core/api-keys/api-key-repository.port';
import type { AccountStatus } from '../../core/accounts/user';
import type { ListWindow } from '../../core/shared/list-page';
import type { Database, PreparedSql } from './database';
import { parseTimestamp } from './timestamp';

interface ApiKeyRow {
  id: number;
  organization_id: number;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  created_at: string | Date;
  expires_at: string | Date | null;
  last_used_at: string | Date | null;
  created_by_user_id: number | null;
  created_by_email: string | null;
}

const KEY_COLUMNS = 'k.id, k.organization_id, k.name, k.role, k.prefix, k.created_at, k.expires_at, k.last_used_at, k.created_by_user_id, u.email as created_by_email';

const CREATE = `with k as (
     insert into api_key (organization_id, name, role, prefix, key_hash, created_by_user_id, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning *)
   select ${KEY_COLUMNS} from k left join app_user u on u.id = k.created_by_user_id`;

// Newest first by keyset: walks the (organization_id, created_at desc, id desc) index. `limit null` is no limit.
const LIST = `select ${KEY_COLUMNS} from api_key k left join app_user u on u.id = k.created_by_user_id
   where k.organization_id = $1 and ($2::timestamptz is null or (k.created_at, k.id) < ($2::timestamptz, $3::bigint))
   order by k.created_at desc, k.id desc limit $4`;

const FIND_BY_ID = `select ${KEY_COLUMNS} from api_key k left join app_user u on u.id = k.created_by_user_id
   where k.organization_id = $1 and k.id = $2`;

// Runs on every request a key makes: one indexed lookup, fixed SQL, prepared once per connection.
const FIND_PRINCIPAL: PreparedSql = {
  name: 'api_key_find_principal',
  text: `select k.id, k.organization_id, k.role, k.expires_at, k.last_used_at, o.status as organization_status
     from api_key k join organization o on o.id = k.organization_id
    where k.key_hash = $1`,
};

// Conditional, so that instances seeing the same key at once write it once.
const RECORD_USE = 'update api_key set last_used_at = $2 where id = $1 and (last_used_at is null or last_used_at < $3)';

const dateOrNull = (value: string | Date | null): Date | null => (value === null ? null : parseTimestamp(value));

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  role: row.role,
  prefix: row.prefix,
  createdAt: parseTimestamp(row.created_at),
  createdBy: row.created_by_user_id === null || row.created_by_email === null ? null : { id: row.created_by_user_id, email: row.created_by_email },
  expiresAt: dateOrNull(row.expires_at),
  lastUsedAt: dateOrNull(row.last_used_at),
});

/** SQL over `api_key`; every organization-scoped statement is filtered by `organization_id`. Joins the caller's UnitOfWork. */
export class PostgresApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly database: Database) {}

  async create(key: NewApiKey): Promise<ApiKey> {
    const [row] = await this.database.select<ApiKeyRow>(CREATE, [
      key.organizationId,
      key.name,
      key.role,
      key.prefix,
      key.keyHash,
      key.createdByUserId,
      key.createdAt,
      key.expiresAt,
    ]);
    return toApiKey(row!);
  }

  async list(organizationId: number, window: ListWindow = {}): Promise<ApiKey[]> {
    const rows = await this.database.select<ApiKeyRow>(LIST, [organizationId, window.after?.createdAt ?? null, window.after?.id ?? null, window.limit ?? null]);
    return rows.map(toApiKey);
  }

  async revoke(organizationId: number, id: number): Promise<RevokedApiKey | null> {
    const row = await this.database.db
      .deleteFrom('api_key')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returning(['id', 'name', 'role'])
      .executeTakeFirst();
    return row ? { id: row.id, name: row.name, role: row.role } : null;
  }

  async findById(organizationId: number, id: number): Promise<ApiKey | null> {
    const [row] = await this.database.select<ApiKeyRow>(FIND_BY_ID, [organizationId, id]);
    return row ? toApiKey(row) : null;
  }

  async findByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    const [row] = await this.database.select<{
      id: number;
      organization_id: number;
      role: ApiKeyRole;
      expires_at: string | Date | null;
      last_used_at: string | Date | null;
      organization_status: AccountStatus;
    }>(FIND_PRINCIPAL, [keyHash]);
    if (!row) return null;
    return {
      apiKeyId: row.id,
      organizationId: row.organization_id,
      role: row.role,
      expiresAt: dateOrNull(row.expires_at),
      lastUsedAt: dateOrNull(row.last_used_at),
      organizationStatus: row.organization_status,
    };
  }

  async recordUse(id: number, at: Date, staleBefore: Date): Promise<boolean> {
    return (await this.database.run(RECORD_USE, [id, at, staleBefore])) > 0;
  }
}
