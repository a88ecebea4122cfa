import { keptDeliveryError } from '../../core/shared/delivery-error';
import type { DeliveryStatus, LeasedOutboxStore } from '../../core/shared/leased-outbox.port';
import type { InMemoryStore, Table } from './in-memory-store';

/** A leased outbox row: its delivery state, under whatever names its table gives the columns. */
type LeasedRow = { status: DeliveryStatus; attempts: number };

/** Which of a row's fields hold its key, next attempt (or lease end), sent time and last error. */
export interface LeasedColumns<Row> {
  key: keyof Row & string;
  nextAttemptAt: keyof Row & string;
  sentAt: keyof Row & string;
  lastError: keyof Row & string;
}

export interface InMemoryLeasedOutboxTable<Row extends LeasedRow, Item> {
  rows: Table<Row>;
  columns: LeasedColumns<Row>;
  /** What a claim returns for a row. */
  itemOf(row: Row): Item;
  /** Changes made whenever a row is finished, sent or dead (erasing bodies …). */
  onFinish?(row: Row): void;
}

const time = (value: unknown): number => new Date(value as Date | string).getTime();

/**
 * The in-memory twin of adapters/postgres/leased-outbox.ts, for every outbox table: each
 * operation runs under the store's lock, so concurrent claimers never receive the same item, and
 * a retry or a give-up only moves a row still `sending` (a sender whose lease ran out, reporting
 * late, must not reopen a row another sender has since delivered).
 */
export class InMemoryLeasedOutbox<Row extends LeasedRow, Item> implements LeasedOutboxStore<Item> {
  constructor(
    private readonly store: InMemoryStore,
    private readonly table: InMemoryLeasedOutboxTable<Row, Item>,
  ) {}

  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Item[]> {
    const { rows, columns, itemOf } = this.table;
    const due = (row: Row) => time(row[columns.nextAttemptAt]);
    return this.store.unitOfWork.exclusive(() =>
      [...rows.values()]
        .filter((row) => (row.status === 'pending' || row.status === 'sending') && due(row) <= now.getTime())
        .sort((a, b) => due(a) - due(b) || Number(a[columns.key]) - Number(b[columns.key]))
        .slice(0, Math.max(0, limit))
        .map((row) => {
          this.assign(row, { status: 'sending', attempts: row.attempts + 1, [columns.nextAttemptAt]: new Date(leaseUntil) });
          return itemOf(row);
        }),
    );
  }

  markSent(key: number, at: Date): Promise<void> {
    const { columns } = this.table;
    return this.update(key, (row) => this.finish(row, { status: 'sent', [columns.sentAt]: new Date(at), [columns.lastError]: null }));
  }

  scheduleRetry(key: number, nextAttemptAt: Date, error: string): Promise<void> {
    const { columns } = this.table;
    return this.update(key, (row) => {
      if (row.status === 'sending') {
        this.assign(row, { status: 'pending', [columns.nextAttemptAt]: new Date(nextAttemptAt), [columns.lastError]: keptDeliveryError(error) });
      }
    });
  }

  markDead(key: number, error: string): Promise<void> {
    const { columns } = this.table;
    return this.update(key, (row) => {
      if (row.status === 'sending') this.finish(row, { status: 'dead', [columns.lastError]: keptDeliveryError(error) });
    });
  }

  private finish(row: Row, change: Record<string, unknown>): void {
    this.assign(row, change);
    this.table.onFinish?.(row);
  }

  private assign(row: Row, change: Record<string, unknown>): void {
    Object.assign(row, change);
  }

  private update(key: number, change: (row: Row) => void): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.table.rows.get(key);
      if (row) change(row);
    });
  }
}
