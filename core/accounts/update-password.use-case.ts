import { DomainError } from '../shared/domain-error';
import type { AccountsPorts } from './accounts-ports';
import type { Caller } from './caller';
import { assertValidPassword } from './password-policy';

/**
 * Changes the password of the logged-in user, given the current one. Keeps the current session
 * and revokes every other. An account without a password (identity provider) cannot prove the
 * current one and must use the reset flow to set one.
 */
export class UpdatePassword {
  constructor(private readonly deps: Pick<AccountsPorts, 'users' | 'sessions' | 'passwordHasher' | 'unitOfWork'>) {}

  async execute(caller: Caller, input: { currentPassword: string; newPassword: string }): Promise<void> {
    assertValidPassword(input.newPassword, 'newPassword');
    const user = await this.deps.users.findById(caller.userId);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const currentOk = await this.deps.passwordHasher.verify(input.currentPassword, user.passwordHash);
    if (!currentOk) throw new DomainError('INVALID_CURRENT_PASSWORD', 'The current password is wrong');
    const passwordHash = await this.deps.passwordHasher.hash(input.newPassword);
    await this.deps.unitOfWork.transaction(async () => {
      await this.deps.users.setPasswordHash(user.id, passwordHash);
      await this.deps.sessions.revokeAllForUser(user.id, caller.sessionId);
    });
  }
}
