import type { Caller } from '../access/caller';
import type { Passkey } from './passkey';
import type { PasskeysDeps } from './passkeys-deps';

/** The caller's own passkeys, oldest first. */
export class ListPasskeys {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys'>) {}

  execute(caller: Caller): Promise<Passkey[]> {
    return this.deps.passkeys.listForUser(caller.userId);
  }
}
