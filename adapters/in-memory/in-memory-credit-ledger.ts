import type { CreditLedger, CreditPurchase } from '../../core/billing/credit-ledger.port';
import { addToBalance, aiTables, type AiTables } from './in-memory-ai-tables';
import type { InMemoryStore } from './in-memory-store';

/** Purchases in the shared store; the checkout session id is unique, as in SQL. */
export class InMemoryCreditLedger implements CreditLedger {
  private readonly tables: AiTables;

  constructor(private readonly store: InMemoryStore) {
    this.tables = aiTables(store);
  }

  credit(purchase: CreditPurchase): Promise<boolean> {
    return this.store.unitOfWork.transaction(async () => {
      if (!this.store.organizations.has(purchase.organizationId) || this.find(purchase.checkoutSessionId)) return false;
      const id = this.store.nextId('ai_credit_transaction');
      this.tables.creditTransactions.set(id, {
        id,
        organization_id: purchase.organizationId,
        kind: 'purchase',
        tokens: purchase.tokens,
        checkout_session_id: purchase.checkoutSessionId,
        pack_id: purchase.packId,
        usage_id: null,
        created_at: new Date(purchase.at),
      });
      addToBalance(this.tables, purchase.organizationId, purchase.tokens, purchase.at);
      return true;
    });
  }

  findPurchase(checkoutSessionId: string): Promise<{ organizationId: number } | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.find(checkoutSessionId);
      return row ? { organizationId: row.organization_id } : null;
    });
  }

  private find(checkoutSessionId: string) {
    return [...this.tables.creditTransactions.values()].find((row) => row.checkout_session_id === checkoutSessionId);
  }
}
