import type { UserCaller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { PasskeysDeps } from './passkeys-deps';
import { eventBy } from '../audit/audit-actor';

/**
 * Deletes one of the caller's passkeys; another user's passkey is as missing as an unknown one.
 * Sessions it signed in stay: they end like any other session (logout, revocation, expiry).
 * Records `passkey.removed` with the deletion.
 */
export class DeletePasskey {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: UserCaller, input: { passkeyId: number }): Promise<void> {
    await this.deps.unitOfWork.transaction(async () => {
      if (!(await this.deps.passkeys.delete(caller.userId, input.passkeyId))) throw resourceNotFound('passkey', input.passkeyId);
      await this.deps.audit.record(eventBy(caller, 'passkey.removed', { type: 'passkey', id: String(input.passkeyId) }));
    });
  }
}
