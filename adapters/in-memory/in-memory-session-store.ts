import type { NewSession, SessionPrincipal, SessionStore, SessionSummary } from '../../core/accounts/session-store.port';
import { newestFirstWindow, type ListWindow } from '../../core/shared/list-page';
import type { InMemoryStore, SessionRow } from './in-memory-store';

const toSummary = (row: SessionRow): SessionSummary => ({
  id: row.id,
  createdAt: new Date(row.created_at),
  lastSeenAt: new Date(row.last_seen_at),
  expiresAt: new Date(row.expires_at),
  userAgent: row.user_agent,
  ip: row.ip,
});

export class InMemorySessionStore implements SessionStore {
  constructor(private readonly store: InMemoryStore) {}

  create(input: NewSession): Promise<{ id: number } | null> {
    return this.store.unitOfWork.exclusive(() => {
      // The unique index of the SQL table.
      if (this.byTokenHash(input.tokenHash)) throw new Error('A session with this token hash already exists');
      const user = this.store.users.get(input.userId);
      if (!user || user.credentials_version !== input.credentialsVersion) return null;
      const row: SessionRow = {
        id: this.store.nextId('session'),
        token_hash: input.tokenHash,
        user_id: input.userId,
        user_agent: input.userAgent ?? null,
        ip: input.ip ?? null,
        credentials_version: input.credentialsVersion,
        via_passkey: input.viaPasskey ?? false,
        created_at: new Date(input.createdAt),
        last_seen_at: new Date(input.createdAt),
        expires_at: new Date(input.expiresAt),
      };
      this.store.sessions.set(row.id, row);
      return { id: row.id };
    });
  }

  findByTokenHash(tokenHash: string): Promise<SessionPrincipal | null> {
    return this.store.unitOfWork.exclusive(() => {
      const session = this.byTokenHash(tokenHash);
      const user = session && this.store.users.get(session.user_id);
      const organization = user && this.store.organizations.get(user.organization_id);
      if (!session || !user || !organization) return null;
      return {
        sessionId: session.id,
        userId: user.id,
        organizationId: organization.id,
        role: user.role,
        expiresAt: new Date(session.expires_at),
        lastSeenAt: new Date(session.last_seen_at),
        userStatus: user.status,
        organizationStatus: organization.status,
        organizationRequiresMfa: organization.require_mfa,
        userHasMfa: this.store.userTotp.get(user.id)?.confirmed_at != null,
        credentialsVersion: session.credentials_version,
        userCredentialsVersion: user.credentials_version,
        viaPasskey: session.via_passkey,
      };
    });
  }

  listLiveForUser(userId: number, now: Date, window?: ListWindow): Promise<SessionSummary[]> {
    return this.store.unitOfWork.exclusive(() =>
      newestFirstWindow(
        [...this.store.sessions.values()].filter((row) => row.user_id === userId && now.getTime() < row.expires_at.getTime()).map(toSummary),
        () => true,
        window,
      ),
    );
  }

  recordActivity(sessionId: number, at: Date, staleBefore: Date): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.sessions.get(sessionId);
      if (!row || row.last_seen_at.getTime() >= staleBefore.getTime()) return false;
      row.last_seen_at = new Date(at);
      return true;
    });
  }

  async revoke(sessionId: number): Promise<void> {
    await this.store.unitOfWork.exclusive(() => this.store.sessions.delete(sessionId));
  }

  revokeOwned(userId: number, sessionId: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.sessions.get(sessionId);
      return row !== undefined && row.user_id === userId && this.store.sessions.delete(sessionId);
    });
  }

  async renewCredentials(sessionId: number, credentialsVersion: number): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      const session = this.store.sessions.get(sessionId);
      if (session) session.credentials_version = credentialsVersion;
    });
  }

  revokeAllForUser(userId: number, exceptSessionId?: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      let revoked = 0;
      for (const session of [...this.store.sessions.values()]) {
        if (session.user_id === userId && session.id !== exceptSessionId) {
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
        .filter((session) => session.expires_at.getTime() < cutoff.getTime())
        .sort((a, b) => a.expires_at.getTime() - b.expires_at.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const session of expired) this.store.sessions.delete(session.id);
      return expired.length;
    });
  }

  private byTokenHash(tokenHash: string): SessionRow | undefined {
    for (const session of this.store.sessions.values()) if (session.token_hash === tokenHash) return session;
    return undefined;
  }
}
