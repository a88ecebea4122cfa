import type { UserCaller } from '../access/caller';
import { DomainError } from '../shared/domain-error';
import type { MfaDeps } from './mfa-deps';
import { acceptTotpCode } from './totp-code';
import { eventBy } from '../audit/audit-actor';

export interface DisableTotpInput {
  password?: string | undefined;
  code?: string | undefined;
}

/**
 * Turns TOTP off and deletes the recovery codes. A session alone is not enough: an account with
 * a password proves it again; an account without one (identity provider) gives a current code.
 * With nothing enrolled (or only an unconfirmed setup) there is nothing to protect, and the call
 * just clears what is there.
 *
 * A stolen session must not make this a password oracle: a wrong password counts in the
 * account's login throttle, and while that is full the password is not even checked
 * (TOO_MANY_ATTEMPTS), so guesses here and at login share one budget. A code counts as a
 * second-factor guess of the account, like one at sign-in. Turning off a confirmed factor
 * records `mfa.disabled` with the change.
 */
export class DisableTotp {
  constructor(
    private readonly deps: Pick<
      MfaDeps,
      'users' | 'mfa' | 'totp' | 'atRestEncryption' | 'passwordHasher' | 'clock' | 'loginThrottle' | 'secondFactorThrottle' | 'unitOfWork' | 'audit'
    >,
  ) {}

  async execute(caller: UserCaller, input: DisableTotpInput): Promise<void> {
    const user = await this.deps.users.findById(caller.userId);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const factor = await this.deps.mfa.findTotp(user.id);
    if (factor?.confirmedAt) {
      if (user.passwordHash !== null) {
        if (input.password === undefined) throw required('password', 'Required: your current password');
        await this.deps.loginThrottle.assertOpen(user.email);
        if (!(await this.deps.passwordHasher.verify(input.password, user.passwordHash))) {
          await this.deps.loginThrottle.recordFailure(user.email);
          throw new DomainError('INVALID_CURRENT_PASSWORD', 'The current password is wrong');
        }
      } else {
        if (input.code === undefined) throw required('code', 'Required: a code from your authenticator');
        await this.deps.secondFactorThrottle.takeGuess(user.id);
        if (!(await acceptTotpCode(this.deps, factor, input.code))) {
          throw new DomainError('INVALID_MFA_CODE', 'The code is wrong or was already used');
        }
      }
    }
    await this.deps.unitOfWork.transaction(async () => {
      await this.deps.mfa.removeAll(user.id);
      if (!factor?.confirmedAt) return;
      await this.deps.audit.record(eventBy(caller, 'mfa.disabled', null, { factor: 'totp', proof: user.passwordHash !== null ? 'password' : 'code' }));
    });
  }
}

const required = (field: string, message: string) => new DomainError('VALIDATION_ERROR', 'The request is invalid', { [field]: message });
