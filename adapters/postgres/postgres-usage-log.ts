import { sql } from 'kysely';
import type { TopUser, UsageLog } from '../../core/ai/usage-log.port';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Period } from '../../core/plans/usage-period';
import type { ListWindow } from '../../core/shared/list-page';
import type { Database } from './database';
import { toUsageRecord } from './ai-rows';

/** Reads of `llm_usage_log`, newest first on its (organization, [user,] created_at desc, id desc) indexes. */
export class PostgresUsageLog implements UsageLog {
  constructor(private readonly database: Database) {}

  async list(organizationId: number, userId: number | null, window: ListWindow): Promise<UsageRecord[]> {
    let query = this.database.db.selectFrom('llm_usage_log').selectAll().where('organization_id', '=', organizationId);
    if (userId !== null) query = query.where('user_id', '=', userId);
    const { after, limit } = window;
    // The cursor's id as int8, the column's type: it may be any integer up to 2^53 - 1.
    if (after) query = query.where(sql<boolean>`(created_at, id) < (${after.createdAt}, ${after.id}::bigint)`);
    query = query.orderBy('created_at', 'desc').orderBy('id', 'desc');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map(toUsageRecord);
  }

  async userTokens(organizationId: number, userId: number, period: Period): Promise<number> {
    const row = await this.database.db
      .selectFrom('llm_usage_log')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>(eb('input_tokens', '+', eb.ref('output_tokens'))), eb.lit(0)).as('tokens'))
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .where('created_at', '>=', period.start)
      .where('created_at', '<', period.end)
      .executeTakeFirstOrThrow();
    return Number(row.tokens);
  }

  async topUsers(organizationId: number, period: Period, limit: number): Promise<TopUser[]> {
    const rows = await this.database.db
      .selectFrom('llm_usage_log as u')
      .innerJoin('app_user as a', 'a.id', 'u.user_id')
      .select((eb) => ['a.id as user_id', 'a.email', eb.fn.sum<string>(eb('u.input_tokens', '+', eb.ref('u.output_tokens'))).as('tokens')])
      .where('u.organization_id', '=', organizationId)
      .where('u.created_at', '>=', period.start)
      .where('u.created_at', '<', period.end)
      .groupBy(['a.id', 'a.email'])
      .orderBy('tokens', 'desc')
      .orderBy('a.id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ userId: row.user_id, email: row.email, tokens: Number(row.tokens) }));
  }
}
