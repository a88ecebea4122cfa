import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../adapters/postgres/database';
import type { RoleName } from '../../core/access/role';

export interface TestSession {
  userId: number;
  organizationId: number;
  role: RoleName;
  /** The raw session token: the value of the session cookie. */
  token: string;
}

export interface TestSessions {
  newOrganization(name?: string): Promise<number>;
  /** A verified user of `role` in the organization, with a live session (rows written directly). */
  loginAs(role: RoleName, organizationId: number): Promise<TestSession>;
}

/**
 * Logged-in users of any role and organization in one step, for end-to-end tests of features
 * that only need "a caller": rows go straight into the tables the session guard reads, the way
 * a login writes them (only the SHA-256 of the token is stored).
 */
export function testSessions(database: Database): TestSessions {
  return {
    newOrganization: (name = 'Acme') => insertOrganization(database, name),
    async loginAs(role, organizationId) {
      const userId = await insertUser(database, organizationId, role);
      const token = randomBytes(32).toString('base64url');
      const now = database.now();
      await database.db
        .insertInto('session')
        .values({
          user_id: userId,
          token_hash: createHash('sha256').update(token, 'utf8').digest('hex'),
          created_at: now,
          last_seen_at: now,
          expires_at: new Date(now.getTime() + 86_400_000),
        })
        .execute();
      return { userId, organizationId, role, token };
    },
  };
}

/** Organization and user rows straight in SQL: the project tables need them for their foreign keys. */
export async function insertOrganization(database: Database, name = 'Acme'): Promise<number> {
  const now = database.now();
  const row = (await database.db
    .insertInto('organization')
    .values({ name, status: 'active', overage_enabled: false, require_mfa: false, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()) as { id: number };
  return row.id;
}

export async function insertUser(database: Database, organizationId: number, role: RoleName = 'member'): Promise<number> {
  const now = database.now();
  const row = (await database.db
    .insertInto('app_user')
    .values({
      organization_id: organizationId,
      email: `${randomUUID()}@example.test`,
      role,
      status: 'active',
      email_verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()) as { id: number };
  return row.id;
}
