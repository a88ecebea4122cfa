import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';
import type { UserCaller } from '../access/caller';
import { assertValidPassword } from './password-policy';
import { eventBy } from '../audit/audit-actor';

/**
 * Changes the password of the logged-in user, given the current one. Keeps the current session,
 * revokes every other and voids outstanding reset links (they were asked for under the old
 * password). The change applies only if the password checked is still the current one: a reset
 * that lands while the hash is compared wins, and this caller's session is dead by then
 * (UNAUTHORIZED). An account without a password (identity provider) cannot prove the current one
 * and must use the reset flow to set one. Records `password.updated` with the change.
 */
export class UpdatePassword {
  constructor(private readonly deps: Pick<AccountsDeps, 'users' | 'sessions' | 'tokens' | 'passwordHasher' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: UserCaller, input: { currentPassword: string; newPassword: string }): Promise<void> {
    assertValidPassword(input.newPassword, 'newPassword');
    const user = await this.deps.users.findById(caller.userId);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const currentOk = await this.deps.passwordHasher.verify(input.currentPassword, user.passwordHash);
    if (!currentOk) throw new DomainError('INVALID_CURRENT_PASSWORD', 'The current password is wrong');
    const passwordHash = await this.deps.passwordHasher.hash(input.newPassword);
    await this.deps.unitOfWork.transaction(async () => {
      const version = await this.deps.users.setPasswordHash(user.id, passwordHash, user.credentialsVersion);
      if (version === null) throw new DomainError('UNAUTHORIZED', 'Authentication required');
      const revoked = await this.deps.sessions.revokeAllForUser(user.id, caller.sessionId);
      await this.deps.sessions.renewCredentials(caller.sessionId, version);
      await this.deps.tokens.revokeAll(user.id, 'reset_password');
      await this.deps.audit.record(eventBy(caller, 'password.updated', null, { revoked_sessions: revoked }));
    });
  }
}
