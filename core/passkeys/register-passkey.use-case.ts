import type { UserCaller } from '../access/caller';
import { DomainError } from '../shared/domain-error';
import { defaultPasskeyName, type Passkey } from './passkey';
import { takeLiveChallenge } from './pending-challenge';
import type { PasskeysDeps } from './passkeys-deps';
import { eventBy } from '../audit/audit-actor';

export interface RegisterPasskeyInput {
  /** The browser's `RegistrationResponseJSON`, as it came. */
  response: unknown;
  name?: string | undefined;
}

const refused = (reason: string) => new DomainError('INVALID_PASSKEY_RESPONSE', `The passkey could not be registered: ${reason}`);

/**
 * Verifies the browser's answer to the caller's pending creation options and stores the new
 * passkey's public key. The challenge is used up by the attempt, whether it succeeds or not. A
 * response that does not verify (bad attestation, wrong origin or rp id, no user verification,
 * a challenge that is not this session's live one) or a credential id already registered to
 * anyone is INVALID_PASSKEY_RESPONSE. The new passkey records `passkey.added` with it.
 */
export class RegisterPasskey {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys' | 'challenges' | 'relyingParty' | 'tokenHasher' | 'clock' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: UserCaller, input: RegisterPasskeyInput): Promise<Passkey> {
    const now = this.deps.clock.now();
    const pending = await takeLiveChallenge(this.deps, { kind: 'registration', sessionId: caller.sessionId }, now);
    const userHandle = pending?.stored.userHandle;
    if (!pending || pending.stored.userId !== caller.userId || !userHandle) throw refused('no live registration challenge for this session');
    const verified = await this.deps.relyingParty.verifyRegistration(input.response, pending.matches);
    if (!verified) throw refused('the response did not verify');
    const created = await this.deps.unitOfWork.transaction(async () => {
      const passkey = await this.deps.passkeys.create({
      userId: caller.userId,
      name: input.name ?? defaultPasskeyName(now),
      credentialId: verified.credentialId,
      publicKey: verified.publicKey,
      counter: verified.counter,
      userHandle,
      deviceType: verified.deviceType,
      backedUp: verified.backedUp,
      transports: verified.transports,
      createdAt: now,
      });
      if (!passkey) return null;
      const details = { name: passkey.name, device_type: passkey.deviceType, backed_up: passkey.backedUp };
      await this.deps.audit.record(eventBy(caller, 'passkey.added', { type: 'passkey', id: String(passkey.id) }, details));
      return passkey;
    });
    if (!created) throw refused('this credential is already registered');
    return created;
  }
}
