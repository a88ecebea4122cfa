import type { IdentityLink, IdentityLinkRepository } from '../../core/accounts/identity-link-repository.port';
import { toIdentityLink } from './account-rows';
import type { Database } from './database';

/** The `identity_link` table; its unique key and foreign key give the port's rejections. */
export class PostgresIdentityLinkRepository implements IdentityLinkRepository {
  constructor(private readonly database: Database) {}

  async create(input: { userId: number; issuer: string; subject: string; createdAt: Date }): Promise<IdentityLink> {
    const row = await this.database.db
      .insertInto('identity_link')
      .values({ user_id: input.userId, issuer: input.issuer, subject: input.subject, created_at: input.createdAt })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toIdentityLink(row);
  }

  async findBySubject(issuer: string, subject: string): Promise<IdentityLink | null> {
    const row = await this.database.db
      .selectFrom('identity_link')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row ? toIdentityLink(row) : null;
  }

  async listByUser(userId: number): Promise<IdentityLink[]> {
    const rows = await this.database.db
      .selectFrom('identity_link')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toIdentityLink);
  }
}
