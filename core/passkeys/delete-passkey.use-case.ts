import type { UserCaller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { PasskeysDeps } from './passkeys-deps';

/**
 * Deletes one of the caller's passkeys; another user's passkey is as missing as an unknown one.
 * Sessions it signed in stay: they end like any other session (logout, revocation, expiry).
 */
export class DeletePasskey {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys'>) {}

  async execute(caller: UserCaller, input: { passkeyId: number }): Promise<void> {
    if (!(await this.deps.passkeys.delete(caller.userId, input.passkeyId))) throw resourceNotFound('passkey', input.passkeyId);
  }
}
