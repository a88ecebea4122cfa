import type { UserCaller } from '../access/caller';
import type { Passkey } from './passkey';
import type { PasskeysDeps } from './passkeys-deps';

/** The caller's own passkeys, oldest first. */
export class ListPasskeys {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys'>) {}

  execute(caller: UserCaller): Promise<Passkey[]> {
    return this.deps.passkeys.listForUser(caller.userId);
  }
}
