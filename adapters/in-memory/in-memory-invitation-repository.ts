import { invitingKeyVouches, inviterVouches, isPending, type Invitation, type InvitingKey } from '../../core/organizations/invitation';
import type { InvitationRepository, NewInvitation } from '../../core/organizations/invitation-repository.port';
import { applyWindow, type ListWindow } from '../../core/shared/list-page';
import type { InMemoryStore, Table } from './in-memory-store';

/** The `invitation` table's row: plain data, as the store's snapshots require. */
type InvitationRow = Invitation;

const copyOf = (row: InvitationRow, keyIsStored: (id: number) => boolean): Invitation => ({
  ...row,
  // Revoking a key deletes its row; the SQL foreign key then clears the reference.
  invitedByApiKeyId: row.invitedByApiKeyId !== null && keyIsStored(row.invitedByApiKeyId) ? row.invitedByApiKeyId : null,
  expiresAt: new Date(row.expiresAt),
  acceptedAt: row.acceptedAt && new Date(row.acceptedAt),
  revokedAt: row.revokedAt && new Date(row.revokedAt),
  createdAt: new Date(row.createdAt),
});

const oldestFirst = (a: InvitationRow, b: InvitationRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;

/**
 * Invitations in the shared InMemoryStore, so transactions cover them and the foreign keys of
 * the SQL table hold: deleting the organization deletes its invitations, deleting the inviting
 * user clears `invitedByUserId`, revoking (deleting) the inviting API key clears `invitedByApiKeyId`.
 */
export class InMemoryInvitationRepository implements InvitationRepository {
  private readonly rows: Table<InvitationRow>;
  /** The `api_key` table the API-key repository keeps in the same store. */
  private readonly apiKeys: Table<InvitingKey>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<InvitationRow>('invitation');
    this.apiKeys = store.table<InvitingKey>('api_key');
    store.onDeleteOrganization((organizationId) => {
      for (const [id, row] of this.rows) if (row.organizationId === organizationId) this.rows.delete(id);
    });
    store.onDeleteUser((userId) => {
      for (const row of this.rows.values()) if (row.invitedByUserId === userId) row.invitedByUserId = null;
    });
  }

  create(input: NewInvitation): Promise<Invitation> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(input.organizationId)) throw new Error(`Organization ${input.organizationId} does not exist`);
      if (input.invitedByUserId !== null && !this.store.users.has(input.invitedByUserId)) {
        throw new Error(`User ${input.invitedByUserId} does not exist`);
      }
      if (input.invitedByApiKeyId !== null && !this.apiKeys.has(input.invitedByApiKeyId)) {
        throw new Error(`API key ${input.invitedByApiKeyId} does not exist`);
      }
      if (input.invitedByUserId !== null && input.invitedByApiKeyId !== null) throw new Error('An invitation has one issuer: a user or an API key');
      if (this.byTokenHash(input.tokenHash)) throw new Error('An invitation with this token hash already exists');
      for (const row of this.rows.values()) {
        if (row.organizationId === input.organizationId && row.email === input.email && row.acceptedAt === null && row.revokedAt === null) {
          row.revokedAt = new Date(input.createdAt);
        }
      }
      const row: InvitationRow = {
        id: this.store.nextId('invitation'),
        ...input,
        expiresAt: new Date(input.expiresAt),
        acceptedAt: null,
        revokedAt: null,
        createdAt: new Date(input.createdAt),
      };
      this.rows.set(row.id, row);
      return this.copy(row);
    });
  }

  findPendingByTokenHash(tokenHash: string, now: Date): Promise<Invitation | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.byTokenHash(tokenHash);
      return row && isPending(row, now) ? this.copy(row) : null;
    });
  }

  consume(tokenHash: string, now: Date): Promise<Invitation | null> {
    // Check and mark in one synchronous step under the lock: no other consumer can interleave.
    return this.store.unitOfWork.exclusive(() => {
      const row = this.byTokenHash(tokenHash);
      if (!row || !isPending(row, now)) return null;
      row.acceptedAt = new Date(now);
      return this.copy(row);
    });
  }

  listAcceptable(organizationId: number, now: Date, window?: ListWindow): Promise<Invitation[]> {
    const acceptable = (row: InvitationRow) => {
      if (!isPending(row, now)) return false;
      if (row.invitedByApiKeyId !== null) return invitingKeyVouches(row, this.apiKeys.get(row.invitedByApiKeyId) ?? null, now);
      const inviter = row.invitedByUserId === null ? undefined : this.store.users.get(row.invitedByUserId);
      return inviterVouches(row, inviter ? { organizationId: inviter.organization_id, role: inviter.role, status: inviter.status } : null);
    };
    return this.store.unitOfWork.exclusive(() =>
      applyWindow([...this.rows.values()].filter((row) => row.organizationId === organizationId && acceptable(row)).sort(oldestFirst), window).map((row) => this.copy(row)),
    );
  }

  revoke(organizationId: number, id: number, now: Date): Promise<Invitation | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(id);
      if (!row || row.organizationId !== organizationId || !isPending(row, now)) return null;
      row.revokedAt = new Date(now);
      return this.copy(row);
    });
  }

  listPendingByEmail(email: string, now: Date): Promise<Invitation[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()].filter((row) => row.email === email && isPending(row, now)).sort(oldestFirst).reverse().map((row) => this.copy(row)),
    );
  }

  private copy(row: InvitationRow): Invitation {
    return copyOf(row, (id) => this.apiKeys.has(id));
  }

  private byTokenHash(tokenHash: string): InvitationRow | undefined {
    for (const row of this.rows.values()) if (row.tokenHash === tokenHash) return row;
    return undefined;
  }
}
