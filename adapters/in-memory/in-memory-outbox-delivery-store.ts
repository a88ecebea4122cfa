import type { ClaimedEmail, OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import type { EmailOutboxRow, InMemoryStore, Table } from './in-memory-store';

export type OutboxDeliveryStatus = 'pending' | 'sending' | 'sent' | 'dead';

/** The delivery columns of `email_outbox` that EmailOutboxRow does not hold (yet). */
export interface OutboxDeliveryRow {
  id: number;
  status: OutboxDeliveryStatus;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
}

export interface OutboxDeliveryState extends OutboxDeliveryRow {
  attempts: number;
}

const MAX_ERROR_LENGTH = 2_000;

// EmailOutboxRow knows only pending | sent | failed; the enqueue side and its `pending()` read that.
const ROW_STATUS: Record<OutboxDeliveryStatus, EmailOutboxRow['status']> = {
  pending: 'pending',
  sending: 'pending',
  sent: 'sent',
  dead: 'failed',
};

/**
 * The delivery side of the outbox over the rows InMemoryEmailOutbox enqueues. Their delivery
 * state sits in a side table keyed by the same id (a row without one is `pending`, due at its
 * `createdAt`, as the PostgreSQL outbox enqueues it). Each operation runs under the store's lock,
 * so concurrent claimers never receive the same email.
 */
export class InMemoryOutboxDeliveryStore implements OutboxDeliveryStore {
  private readonly delivery: Table<OutboxDeliveryRow>;

  constructor(private readonly store: InMemoryStore) {
    this.delivery = store.table<OutboxDeliveryRow>('email_outbox_delivery');
  }

  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEmail[]> {
    return this.store.unitOfWork.exclusive(() => {
      const due = [...this.store.emailOutbox.values()]
        .map((row) => ({ row, state: this.stateOf(row) }))
        .filter(({ state }) => (state.status === 'pending' || state.status === 'sending') && state.nextAttemptAt <= now)
        .sort((a, b) => a.state.nextAttemptAt.getTime() - b.state.nextAttemptAt.getTime() || a.row.id - b.row.id)
        .slice(0, Math.max(0, limit));
      return due.map(({ row }) => {
        row.attempts += 1;
        this.write(row, { status: 'sending', nextAttemptAt: new Date(leaseUntil) });
        return {
          id: row.id,
          attempts: row.attempts,
          message: {
            to: row.to,
            subject: row.subject,
            text: row.text,
            html: row.html,
            idempotencyKey: row.idempotencyKey,
            ...(row.tag === null ? {} : { tag: row.tag }),
          },
        };
      });
    });
  }

  markSent(id: number, at: Date): Promise<void> {
    return this.update(id, () => ({ status: 'sent', sentAt: new Date(at), lastError: null }));
  }

  // Like the SQL adapter, these only move a `sending` email: a late report from a sender whose
  // lease ran out must not reopen an email another sender has sent since.
  scheduleRetry(id: number, nextAttemptAt: Date, error: string): Promise<void> {
    return this.update(id, (state) =>
      state.status === 'sending'
        ? { status: 'pending', nextAttemptAt: new Date(nextAttemptAt), lastError: error.slice(0, MAX_ERROR_LENGTH) }
        : undefined,
    );
  }

  markDead(id: number, error: string): Promise<void> {
    return this.update(id, (state) =>
      state.status === 'sending' ? { status: 'dead', lastError: error.slice(0, MAX_ERROR_LENGTH) } : undefined,
    );
  }

  /** An email's full delivery state, as a row of the SQL table reads; undefined for an unknown id. */
  inspect(id: number): Promise<OutboxDeliveryState | undefined> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.emailOutbox.get(id);
      return row ? { ...this.stateOf(row), attempts: row.attempts } : undefined;
    });
  }

  private stateOf(row: EmailOutboxRow): OutboxDeliveryRow {
    return (
      this.delivery.get(row.id) ?? {
        id: row.id,
        status: row.status === 'failed' ? 'dead' : row.status,
        nextAttemptAt: row.createdAt,
        lastError: null,
        sentAt: null,
      }
    );
  }

  private update(id: number, change: (state: OutboxDeliveryRow) => Partial<OutboxDeliveryRow> | undefined): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.emailOutbox.get(id);
      if (!row) return;
      const patch = change(this.stateOf(row));
      if (patch) this.write(row, patch);
    });
  }

  private write(row: EmailOutboxRow, patch: Partial<OutboxDeliveryRow>): void {
    const next = { ...this.stateOf(row), ...patch };
    this.delivery.set(row.id, next);
    row.status = ROW_STATUS[next.status];
  }
}
