import type { User } from '../../core/accounts/user';
import type { PasskeysDeps } from '../../core/passkeys/passkeys-deps';
import { StartPasskeyRegistration } from '../../core/passkeys/start-passkey-registration.use-case';
import { RegisterPasskey } from '../../core/passkeys/register-passkey.use-case';
import { ListPasskeys } from '../../core/passkeys/list-passkeys.use-case';
import { RenamePasskey } from '../../core/passkeys/rename-passkey.use-case';
import { DeletePasskey } from '../../core/passkeys/delete-passkey.use-case';
import { StartPasskeyLogin } from '../../core/passkeys/start-passkey-login.use-case';
import { LoginWithPasskey } from '../../core/passkeys/login-with-passkey.use-case';
import { InMemoryPasskeyRepository } from '../../adapters/in-memory/in-memory-passkey-repository';
import { InMemoryPasskeyChallengeStore } from '../../adapters/in-memory/in-memory-passkey-challenge-store';
import { SimpleWebAuthnRelyingParty } from '../../adapters/webauthn/simplewebauthn-relying-party';
import { SoftwareAuthenticator } from '../fakes/software-authenticator';
import type { AccountsHarness } from './accounts';
import { mfaHarness, type MfaHarness } from './mfa';

export const PASSKEY_ORIGIN = 'https://app.example.test';

export interface PasskeysHarness extends MfaHarness {
  passkeyDeps: PasskeysDeps;
  startRegistration: StartPasskeyRegistration;
  register: RegisterPasskey;
  list: ListPasskeys;
  rename: RenamePasskey;
  remove: DeletePasskey;
  startLogin: StartPasskeyLogin;
  loginWithPasskey: LoginWithPasskey;
  /** A logged-in `user` registers a passkey on a new software authenticator; returns both. */
  enrolPasskey(user: User): Promise<{ authenticator: SoftwareAuthenticator; passkeyId: number }>;
}

/** The passkey use cases' deps over an accounts harness's in-memory store, with the real relying party (rp id `app.example.test`). */
export function passkeyDepsOf(h: AccountsHarness): PasskeysDeps {
  return {
    passkeys: new InMemoryPasskeyRepository(h.store),
    challenges: new InMemoryPasskeyChallengeStore(h.store),
    relyingParty: new SimpleWebAuthnRelyingParty({ name: 'tenantkit', rpId: 'app.example.test', origins: [PASSKEY_ORIGIN] }),
    users: h.ports.users,
    organizations: h.ports.organizations,
    sessions: h.ports.sessions,
    sessionIssuer: h.issuer,
    tokenGenerator: h.ports.tokenGenerator,
    tokenHasher: h.ports.tokenHasher,
    clock: h.clock,
    unitOfWork: h.ports.unitOfWork,
    audit: h.ports.audit,
    loginThrottle: h.throttle,
    failedSignIns: h.failedSignIns,
  };
}

/** The passkey use cases over `passkeyDepsOf` an MFA harness. */
export function passkeysHarness(): PasskeysHarness {
  const h = mfaHarness();
  const passkeyDeps = passkeyDepsOf(h);
  const startRegistration = new StartPasskeyRegistration(passkeyDeps);
  const register = new RegisterPasskey(passkeyDeps);
  return {
    ...h,
    passkeyDeps,
    startRegistration,
    register,
    list: new ListPasskeys(passkeyDeps),
    rename: new RenamePasskey(passkeyDeps),
    remove: new DeletePasskey(passkeyDeps),
    startLogin: new StartPasskeyLogin(passkeyDeps),
    loginWithPasskey: new LoginWithPasskey(passkeyDeps),
    async enrolPasskey(user) {
      const caller = await h.callerFor(user);
      const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
      const options = await startRegistration.execute(caller);
      const passkey = await register.execute(caller, { response: authenticator.register(options) });
      return { authenticator, passkeyId: passkey.id };
    },
  };
}
