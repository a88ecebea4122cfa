import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../adapters/postgres/database';
import type { RoleName } from '../../core/accounts/role';

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
    async newOrganization(name = 'Acme') {
      const [row] = (await database.db('organization').insert({ name }).returning('id')) as Array<{ id: number }>;
      return row!.id;
    },
    async loginAs(role, organizationId) {
      const db = database.db;
      const [user] = (await db('app_user')
        .insert({ organization_id: organizationId, email: `${randomUUID()}@example.test`, role, email_verified_at: db.fn.now() })
        .returning('id')) as Array<{ id: number }>;
      const token = randomBytes(32).toString('base64url');
      await db('session').insert({
        user_id: user!.id,
        token_hash: createHash('sha256').update(token, 'utf8').digest('hex'),
        expires_at: db.raw(`now() + interval '1 day'`),
      });
      return { userId: user!.id, organizationId, role, token };
    },
  };
}
