import type { Row } from '../postgres/schema/tables';
import { deleteWhere, type InMemoryStore, type Table } from './in-memory-store';

/** The AI copilot's tables in the shared store, as the entity schemas declare them. */
export interface AiTables {
  reservations: Table<Row<'ai_reservation'>>;
  periodUsage: Table<Row<'ai_period_usage'>, string>;
  creditAccounts: Table<Row<'ai_credit_account'>>;
  creditTransactions: Table<Row<'ai_credit_transaction'>>;
  usageLog: Table<Row<'llm_usage_log'>>;
  overageReports: Table<Row<'ai_overage_report'>>;
}

/** `ai_period_usage`'s composite key. */
export const periodKey = (organizationId: number, periodStart: Date): string => `${organizationId}|${periodStart.toISOString()}`;

const attached = new WeakMap<InMemoryStore, AiTables>();

/**
 * The tables, created once per store with the foreign keys' cascades: deleting an organization
 * deletes all of its rows; deleting a user leaves their usage rows to nobody (set null).
 */
export function aiTables(store: InMemoryStore): AiTables {
  const existing = attached.get(store);
  if (existing) return existing;
  const tables: AiTables = {
    reservations: store.table('ai_reservation'),
    periodUsage: store.table('ai_period_usage'),
    creditAccounts: store.table('ai_credit_account'),
    creditTransactions: store.table('ai_credit_transaction'),
    usageLog: store.table('llm_usage_log'),
    overageReports: store.table('ai_overage_report'),
  };
  store.onDeleteOrganization((organizationId) => {
    for (const table of Object.values(tables) as Table<{ organization_id: number }, unknown>[]) {
      deleteWhere(table, (row) => row.organization_id === organizationId);
    }
  });
  store.onDeleteUser((userId) => {
    for (const row of tables.usageLog.values()) if (row.user_id === userId) row.user_id = null;
  });
  attached.set(store, tables);
  return tables;
}

/** Adds `tokens` (negative: takes) to the organization's credit balance, creating its account. */
export function addToBalance(tables: AiTables, organizationId: number, tokens: number, at: Date): void {
  const account = tables.creditAccounts.get(organizationId);
  const balance = Number(account?.balance ?? 0) + tokens;
  if (balance < 0) throw new Error('ai_credit_account_balance_not_negative: the balance would go below zero');
  tables.creditAccounts.set(organizationId, { organization_id: organizationId, balance, updated_at: at });
}
