import type { UserCaller } from '../access/caller';
import { DomainError } from '../shared/domain-error';
import { totpSecretContext, TOTP_WINDOW, type MfaDeps } from './mfa-deps';
import { normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';
import { eventBy } from '../audit/audit-actor';

const invalidCode = () => new DomainError('INVALID_MFA_CODE', 'The code is wrong or was already used');

/**
 * Turns TOTP on once the user proves their authenticator holds the secret. Hands out the
 * recovery codes (shown only now; stored hashed) and revokes the user's other sessions: any of
 * them may have been opened by whoever the user is locking out. Records `mfa.enabled`.
 */
export class ConfirmTotp {
  constructor(
    private readonly deps: Pick<MfaDeps, 'mfa' | 'sessions' | 'totp' | 'atRestEncryption' | 'recoveryCodes' | 'tokenHasher' | 'clock' | 'unitOfWork' | 'audit'>,
  ) {}

  async execute(caller: UserCaller, input: { code: string }): Promise<{ recoveryCodes: string[] }> {
    const factor = await this.deps.mfa.findTotp(caller.userId);
    if (!factor || factor.confirmedAt) throw notPending(factor !== null);
    const secret = this.deps.atRestEncryption.open(factor.sealedSecret, totpSecretContext(caller.userId));
    const now = this.deps.clock.now();
    const step = this.deps.totp.findStep({ secret, code: input.code, at: now, window: TOTP_WINDOW });
    if (step === null) throw invalidCode();
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => this.deps.recoveryCodes.generate());
    await this.deps.unitOfWork.transaction(async () => {
      const confirmed = await this.deps.mfa.confirmTotp({
        userId: caller.userId,
        confirmedAt: now,
        step,
        recoveryCodeHashes: recoveryCodes.map((code) => this.deps.tokenHasher.hash(normalizeRecoveryCode(code))),
      });
      if (!confirmed) throw notPending(true);
      const revoked = await this.deps.sessions.revokeAllForUser(caller.userId, caller.sessionId);
      await this.deps.audit.record(eventBy(caller, 'mfa.enabled', null, { factor: 'totp', revoked_sessions: revoked }));
    });
    return { recoveryCodes };
  }
}

function notPending(exists: boolean): DomainError {
  return new DomainError(
    'CONFLICT',
    exists ? 'Two-factor authentication is already on' : 'Start the setup first: there is no pending authenticator to confirm',
  );
}
