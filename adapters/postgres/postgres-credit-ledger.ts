import type { CreditLedger, CreditPurchase } from '../../core/billing/credit-ledger.port';
import type { Database } from './database';

const ADD_TO_BALANCE = `insert into ai_credit_account (organization_id, balance, updated_at) values ($1, $2, $3)
  on conflict (organization_id) do update set balance = ai_credit_account.balance + excluded.balance, updated_at = excluded.updated_at`;

/**
 * Purchases on PostgreSQL. The checkout session id is unique in `ai_credit_transaction`: of two
 * concurrent fulfilments of one session (the webhook and the verify call), the second insert
 * waits for the first and then inserts nothing, so only one adds to the balance.
 */
export class PostgresCreditLedger implements CreditLedger {
  constructor(private readonly database: Database) {}

  credit(purchase: CreditPurchase): Promise<boolean> {
    return this.database.transaction(async () => {
      const organization = await this.database.db.selectFrom('organization').select('id').where('id', '=', purchase.organizationId).executeTakeFirst();
      if (!organization) return false;
      const inserted = await this.database.db
        .insertInto('ai_credit_transaction')
        .values({
          organization_id: purchase.organizationId,
          kind: 'purchase',
          tokens: purchase.tokens,
          checkout_session_id: purchase.checkoutSessionId,
          pack_id: purchase.packId,
          created_at: purchase.at,
        })
        .onConflict((conflict) => conflict.column('checkout_session_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      await this.database.run(ADD_TO_BALANCE, [purchase.organizationId, purchase.tokens, purchase.at]);
      return true;
    });
  }

  async findPurchase(checkoutSessionId: string): Promise<{ organizationId: number } | null> {
    const row = await this.database.db
      .selectFrom('ai_credit_transaction')
      .select('organization_id')
      .where('checkout_session_id', '=', checkoutSessionId)
      .executeTakeFirst();
    return row ? { organizationId: row.organization_id } : null;
  }
}
