import type { NewSession, SessionPrincipal, SessionStore, SessionSummary } from '../../core/accounts/session-store.port';
import { newestFirstWindow, type ListWindow } from '../../core/shared/list-page';
import type { InMemoryStore, SessionRow } from './in-memory-store';

const toSummary = (row: SessionRow): SessionSummary => ({
  id: row.id,
  createdAt: new Date(row.createdAt),
  lastSeenAt: new Date(row.lastSeenAt),
  expiresAt: new Date(row.expiresAt),
  userAgent: row.userAgent,
  ip: row.ip,
});

export class InMemorySessionStore implements SessionStore {
  constructor(private readonly store: InMemoryStore) {}

  create(input: NewSession): Promise<{ id: number } | null> {
    return this.store.unitOfWork.exclusive(() => {
      // The unique index of the SQL table.
      if (this.byTokenHash(input.tokenHash)) throw new Error('A session with this token hash already exists');
      const user = this.store.users.get(input.userId);
      if (!user || user.credentialsVersion !== input.credentialsVersion) return null;
      const row: SessionRow = {
        id: this.store.nextId('session'),
        tokenHash: input.tokenHash,
        userId: input.userId,
        userAgent: input.userAgent ?? null,
        ip: input.ip ?? null,
        credentialsVersion: input.credentialsVersion,
        viaPasskey: input.viaPasskey ?? false,
        createdAt: new Date(input.createdAt),
        lastSeenAt: new Date(input.createdAt),
        expiresAt: new Date(input.expiresAt),
      };
      this.store.sessions.set(row.id, row);
      return { id: row.id };
    });
  }

  findByTokenHash(tokenHash: string): Promise<SessionPrincipal | null> {
    return this.store.unitOfWork.exclusive(() => {
      const session = this.byTokenHash(tokenHash);
      const user = session && this.store.users.get(session.userId);
      const organization = user && this.store.organizations.get(user.organizationId);
      if (!session || !user || !organization) return null;
      return {
        sessionId: session.id,
        userId: user.id,
        organizationId: organization.id,
        role: user.role,
        expiresAt: new Date(session.expiresAt),
        lastSeenAt: new Date(session.lastSeenAt),
        userStatus: user.status,
        organizationStatus: organization.status,
        organizationRequiresMfa: organization.requireMfa,
        userHasMfa: this.store.userTotp.get(user.id)?.confirmedAt != null,
        credentialsVersion: session.credentialsVersion,
        userCredentialsVersion: user.credentialsVersion,
        viaPasskey: session.viaPasskey,
      };
    });
  }

  listLiveForUser(userId: number, now: Date, window?: ListWindow): Promise<SessionSummary[]> {
    return this.store.unitOfWork.exclusive(() =>
      newestFirstWindow(this.store.sessions.values(), (row) => row.userId === userId && now.getTime() < row.expiresAt.getTime(), window).map(toSummary),
    );
  }

  recordActivity(sessionId: number, at: Date, staleBefore: Date): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.sessions.get(sessionId);
      if (!row || row.lastSeenAt.getTime() >= staleBefore.getTime()) return false;
      row.lastSeenAt = new Date(at);
      return true;
    });
  }

  async revoke(sessionId: number): Promise<void> {
    await this.store.unitOfWork.exclusive(() => this.store.sessions.delete(sessionId));
  }

  revokeOwned(userId: number, sessionId: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.sessions.get(sessionId);
      return row !== undefined && row.userId === userId && this.store.sessions.delete(sessionId);
    });
  }

  async renewCredentials(sessionId: number, credentialsVersion: number): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      const session = this.store.sessions.get(sessionId);
      if (session) session.credentialsVersion = credentialsVersion;
    });
  }

  revokeAllForUser(userId: number, exceptSessionId?: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      let revoked = 0;
      for (const session of [...this.store.sessions.values()]) {
        if (session.userId === userId && session.id !== exceptSessionId) {
          this.store.sessions.delete(session.id);
          revoked += 1;
        }
      }
      return revoked;
    });
  }

  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      // Oldest expiry first, as the SQL adapter walks its expires_at index.
      const expired = [...this.store.sessions.values()]
        .filter((session) => session.expiresAt.getTime() < cutoff.getTime())
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const session of expired) this.store.sessions.delete(session.id);
      return expired.length;
    });
  }

  private byTokenHash(tokenHash: string): SessionRow | undefined {
    for (const session of this.store.sessions.values()) if (session.tokenHash === tokenHash) return session;
    return undefined;
  }
}
