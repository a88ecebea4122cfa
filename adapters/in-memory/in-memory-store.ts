import type { Clock } from '../../core/shared/clock.port';
import { SystemClock } from '../system/system-clock';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work';
import type { Row } from '../postgres/schema/tables';

// Rows mirror the SQL tables (the entity schemas in adapters/postgres), with the same columns and
// the same words in them, so both adapter families hold the same facts. A row is `Row<'table'>`,
// inferred from the entity schema so the table is declared once. Rows stay plain data (no
// classes, no functions) because transactions snapshot them with structuredClone.

/** `organization`: the domain's Organization plus the columns it does not read (its settings, `updated_at`). */
export type OrganizationRow = Row<'organization'>;

/** `app_user`: the domain's User, with the verification time behind `emailVerified`, plus `updated_at`. */
export type UserRow = Row<'app_user'>;

export type SessionRow = Row<'session'>;

/** One per user at most (the user id is the key). */
export type UserTotpRow = Row<'user_totp'>;
export type RecoveryCodeRow = Row<'mfa_recovery_code'>;
export type MfaChallengeRow = Row<'mfa_challenge'>;

export type OneTimeTokenRow = Row<'one_time_token'>;

/**
 * Every column of `email_outbox`: the enqueue side writes it, the delivery side moves it along.
 * While `sending`, `next_attempt_at` is when its sender's lease ends.
 */
export type EmailOutboxRow = Row<'email_outbox'>;

/** A table keyed by its primary key: a serial id for most, a natural key (a string) for some. */
export type Table<Row, Key = number> = Map<Key, Row>;
export type StoreSnapshot = Map<string, Table<unknown, unknown>>;
type Listener = (id: number) => void;

/**
 * One in-memory "database" shared by every in-memory adapter, so that a UnitOfWork spans all of
 * them and deletes cascade as the foreign keys do in SQL. Adapters of other contexts attach their
 * own tables with `table(name)` and their cascades with `onDeleteUser` / `onDeleteOrganization`.
 * Use `unitOfWork` (one per store): its lock is what keeps the tables consistent.
 */
export class InMemoryStore {
  private readonly tables = new Map<string, Table<unknown, unknown>>();
  private readonly sequences = new Map<string, number>();
  private readonly userListeners: Listener[] = [];
  private readonly organizationListeners: Listener[] = [];

  readonly organizations = this.table<OrganizationRow>('organization');
  readonly users = this.table<UserRow>('app_user');
  readonly sessions = this.table<SessionRow>('session');
  readonly oneTimeTokens = this.table<OneTimeTokenRow>('one_time_token');
  readonly emailOutbox = this.table<EmailOutboxRow>('email_outbox');
  readonly userTotp = this.table<UserTotpRow>('user_totp');
  readonly recoveryCodes = this.table<RecoveryCodeRow>('mfa_recovery_code');
  readonly mfaChallenges = this.table<MfaChallengeRow>('mfa_challenge');
  readonly unitOfWork = new InMemoryUnitOfWork(this);
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? new SystemClock();
    this.onDeleteUser((userId) => {
      deleteWhere(this.sessions, (session) => session.user_id === userId);
      deleteWhere(this.oneTimeTokens, (token) => token.user_id === userId);
      this.userTotp.delete(userId);
      deleteWhere(this.recoveryCodes, (code) => code.user_id === userId);
      deleteWhere(this.mfaChallenges, (challenge) => challenge.user_id === userId);
    });
  }

  /** The table called `name`, created empty on first use. Keep the same map: it is restored in place. */
  table<Row, Key = number>(name: string): Table<Row, Key> {
    let table = this.tables.get(name);
    if (!table) {
      table = new Map();
      this.tables.set(name, table);
    }
    return table as Table<Row, Key>;
  }

  /** Like a SQL sequence: ids are never reused, not even after a rollback. */
  nextId(tableName: string): number {
    const next = (this.sequences.get(tableName) ?? 0) + 1;
    this.sequences.set(tableName, next);
    return next;
  }

  /** Timestamps for `created_at`/`updated_at` (what `now()` is in SQL). */
  now(): Date {
    return this.clock.now();
  }

  onDeleteUser(listener: Listener): void {
    this.userListeners.push(listener);
  }

  onDeleteOrganization(listener: Listener): void {
    this.organizationListeners.push(listener);
  }

  /** Deletes the user and, through the listeners, every row that references them. */
  deleteUser(userId: number): boolean {
    if (!this.users.delete(userId)) return false;
    for (const listener of this.userListeners) listener(userId);
    return true;
  }

  /** Deletes the organization, its users (cascading further) and whatever else references it. */
  deleteOrganization(organizationId: number): boolean {
    if (!this.organizations.has(organizationId)) return false;
    for (const user of [...this.users.values()]) {
      if (user.organization_id === organizationId) this.deleteUser(user.id);
    }
    for (const listener of this.organizationListeners) listener(organizationId);
    this.organizations.delete(organizationId);
    return true;
  }

  snapshot(): StoreSnapshot {
    return structuredClone(this.tables);
  }

  /** Puts every table back as it was in `snapshot`, keeping the Map objects adapters hold. */
  restore(snapshot: StoreSnapshot): void {
    for (const [name, table] of this.tables) {
      table.clear();
      for (const [id, row] of snapshot.get(name) ?? []) table.set(id, row);
    }
  }
}

export function deleteWhere<Row, Key>(table: Table<Row, Key>, predicate: (row: Row) => boolean): number {
  let deleted = 0;
  for (const [id, row] of table) {
    if (predicate(row)) {
      table.delete(id);
      deleted += 1;
    }
  }
  return deleted;
}
