import { DeletePasskey } from '../../core/passkeys/delete-passkey.use-case';
import { LoginWithPasskey } from '../../core/passkeys/login-with-passkey.use-case';
import type { PasskeysDeps } from '../../core/passkeys/passkeys-deps';
import { RegisterPasskey } from '../../core/passkeys/register-passkey.use-case';
import { StartPasskeyLogin } from '../../core/passkeys/start-passkey-login.use-case';
import { StartPasskeyRegistration } from '../../core/passkeys/start-passkey-registration.use-case';
import { SoftwareAuthenticator } from '../fakes/software-authenticator';
import { TEST_ORIGIN } from './accounts';
import { flow, signedIn } from './audited-account-flows';
import type { AuditWorld } from './audited-flows';
import { PASSKEY_ORIGIN, passkeyDepsOf } from './passkeys';

/**
 * Passkeys added, used and removed, as rows of the audited-flows table (in memory, like the other
 * account flows). The sign-in cookie tokens and the sessions they yield are revealed, so the
 * "never a secret" property searches the log for them too.
 */

/** A member signed in, with a passkey on a software authenticator, and the passkey use cases' deps. */
async function withPasskey(world: AuditWorld, password: string, revealed: string[]) {
  const base = await signedIn(world, password);
  revealed.push(base.session.token);
  const deps = passkeyDepsOf(base.h);
  const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
  const options = await new StartPasskeyRegistration(deps).execute(base.caller);
  const passkey = await new RegisterPasskey(deps).execute(base.caller, { response: authenticator.register(options) });
  return { ...base, deps, authenticator, passkeyId: passkey.id };
}

/** Starts a passkey sign-in; its cookie token and its challenge are revealed. */
async function startedLogin(deps: PasskeysDeps, revealed: string[]) {
  const started = await new StartPasskeyLogin(deps).execute();
  revealed.push(started.cookieToken, String(started.options.challenge));
  return started;
}

export const PASSKEY_FLOWS = [
  flow('a member adds a passkey', ['passkey.added'], async (world, secrets, revealed) => {
    const { h, organizationId, caller, session } = await signedIn(world, secrets.password);
    revealed.push(session.token);
    const deps = passkeyDepsOf(h);
    return {
      organizationId,
      run: async () => {
        const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
        const options = await new StartPasskeyRegistration(deps).execute(caller);
        await new RegisterPasskey(deps).execute(caller, { response: authenticator.register(options) });
      },
    };
  }),
  flow('a member signs in with a passkey', ['login.succeeded'], async (world, secrets, revealed) => {
    const { organizationId, deps, authenticator } = await withPasskey(world, secrets.password, revealed);
    const started = await startedLogin(deps, revealed);
    return {
      organizationId,
      run: async () => {
        const { session } = await new LoginWithPasskey(deps).execute({ cookieToken: started.cookieToken, response: authenticator.assert(started.options), origin: TEST_ORIGIN });
        revealed.push(session.token);
      },
    };
  }),
  flow('someone answers a passkey sign-in without user verification', ['login.failed'], async (world, secrets, revealed) => {
    const { h, organizationId, deps, authenticator } = await withPasskey(world, secrets.password, revealed);
    const started = await startedLogin(deps, revealed);
    return {
      organizationId,
      run: async () => {
        const response = authenticator.assert(started.options, { withoutUserVerification: true });
        await new LoginWithPasskey(deps).execute({ cookieToken: started.cookieToken, response, origin: TEST_ORIGIN }).catch(() => undefined);
        await h.failedSignIns.flush();
      },
    };
  }),
  flow('a member removes a passkey', ['passkey.removed'], async (world, secrets, revealed) => {
    const { organizationId, deps, caller, passkeyId } = await withPasskey(world, secrets.password, revealed);
    return { organizationId, run: () => new DeletePasskey(deps).execute(caller, { passkeyId }) };
  }),
];
