import type { UserCaller } from '../access/caller';
import { DomainError } from '../shared/domain-error';
import { totpSecretContext, type MfaDeps } from './mfa-deps';

export interface TotpSetup {
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  otpauthUrl: string;
}

/**
 * Starts TOTP enrolment: a new secret, stored sealed and unconfirmed (replacing an earlier
 * unconfirmed one), shown to the user once. A user whose TOTP is already on must disable it
 * first (CONFLICT), so a stolen session cannot silently move the factor to another device.
 */
export class SetupTotp {
  constructor(private readonly deps: Pick<MfaDeps, 'users' | 'mfa' | 'totp' | 'atRestEncryption' | 'clock' | 'settings'>) {}

  async execute(caller: UserCaller): Promise<TotpSetup> {
    const user = await this.deps.users.findById(caller.userId);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const secret = this.deps.totp.generateSecret();
    const saved = await this.deps.mfa.saveUnconfirmedTotp({
      userId: user.id,
      sealedSecret: this.deps.atRestEncryption.seal(secret, totpSecretContext(user.id)),
      createdAt: this.deps.clock.now(),
    });
    if (!saved) throw new DomainError('CONFLICT', 'Two-factor authentication is already on; disable it first');
    return { secret, otpauthUrl: this.deps.totp.keyUri({ secret, issuer: this.deps.settings.issuer, account: user.email }) };
  }
}
