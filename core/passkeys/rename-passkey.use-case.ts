import type { UserCaller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Passkey } from './passkey';
import type { PasskeysDeps } from './passkeys-deps';

/** Renames one of the caller's passkeys; another user's passkey is as missing as an unknown one. */
export class RenamePasskey {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys'>) {}

  async execute(caller: UserCaller, input: { passkeyId: number; name: string }): Promise<Passkey> {
    const renamed = await this.deps.passkeys.rename(caller.userId, input.passkeyId, input.name);
    if (!renamed) throw resourceNotFound('passkey', input.passkeyId);
    return renamed;
  }
}
