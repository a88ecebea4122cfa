import type { IdentityLink, IdentityLinkRepository } from '../../core/accounts/identity-link-repository.port';
import { toIdentityLink } from '../postgres/account-rows';
import type { Row } from '../postgres/schema/tables';
import { deleteWhere, type InMemoryStore, type Table } from './in-memory-store';

/** The `identity_link` row, as the entity schema declares it. */
type IdentityLinkRow = Row<'identity_link'>;

/** Identity links in the shared InMemoryStore: same unique key and cascade as the SQL table. */
export class InMemoryIdentityLinkRepository implements IdentityLinkRepository {
  private readonly rows: Table<IdentityLinkRow>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<IdentityLinkRow>('identity_link');
    store.onDeleteUser((userId) => deleteWhere(this.rows, (row) => row.user_id === userId));
  }

  create(input: { userId: number; issuer: string; subject: string; createdAt: Date }): Promise<IdentityLink> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      if (this.bySubject(input.issuer, input.subject)) throw new Error('This identity is already linked');
      const row: IdentityLinkRow = {
        id: this.store.nextId('identity_link'),
        user_id: input.userId,
        issuer: input.issuer,
        subject: input.subject,
        created_at: new Date(input.createdAt),
      };
      this.rows.set(row.id, row);
      return toIdentityLink(row);
    });
  }

  findBySubject(issuer: string, subject: string): Promise<IdentityLink | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.bySubject(issuer, subject);
      return row ? toIdentityLink(row) : null;
    });
  }

  listByUser(userId: number): Promise<IdentityLink[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()]
        .filter((row) => row.user_id === userId)
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id)
        .map(toIdentityLink),
    );
  }

  private bySubject(issuer: string, subject: string): IdentityLinkRow | undefined {
    for (const row of this.rows.values()) if (row.issuer === issuer && row.subject === subject) return row;
    return undefined;
  }
}
