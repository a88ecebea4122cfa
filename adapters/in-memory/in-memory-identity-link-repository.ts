import type { IdentityLink, IdentityLinkRepository } from '../../core/accounts/identity-link-repository.port';
import { deleteWhere, type InMemoryStore, type Table } from './in-memory-store';

/** The `identity_link` table's row: plain data, as the store's snapshots require. */
type IdentityLinkRow = IdentityLink;

const copy = (row: IdentityLinkRow): IdentityLink => ({ ...row, createdAt: new Date(row.createdAt) });

/** Identity links in the shared InMemoryStore: same unique key and cascade as the SQL table. */
export class InMemoryIdentityLinkRepository implements IdentityLinkRepository {
  private readonly rows: Table<IdentityLinkRow>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<IdentityLinkRow>('identity_link');
    store.onDeleteUser((userId) => deleteWhere(this.rows, (row) => row.userId === userId));
  }

  create(input: { userId: number; issuer: string; subject: string; createdAt: Date }): Promise<IdentityLink> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      if (this.bySubject(input.issuer, input.subject)) throw new Error('This identity is already linked');
      const row: IdentityLinkRow = { id: this.store.nextId('identity_link'), ...input, createdAt: new Date(input.createdAt) };
      this.rows.set(row.id, row);
      return copy(row);
    });
  }

  findBySubject(issuer: string, subject: string): Promise<IdentityLink | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.bySubject(issuer, subject);
      return row ? copy(row) : null;
    });
  }

  listByUser(userId: number): Promise<IdentityLink[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()]
        .filter((row) => row.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
        .map(copy),
    );
  }

  private bySubject(issuer: string, subject: string): IdentityLinkRow | undefined {
    for (const row of this.rows.values()) if (row.issuer === issuer && row.subject === subject) return row;
    return undefined;
  }
}
