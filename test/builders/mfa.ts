import type { User } from '../../core/accounts/user';
import type { UserCaller } from '../../core/access/caller';
import { ConfirmTotp } from '../../core/mfa/confirm-totp.use-case';
import { DisableTotp } from '../../core/mfa/disable-totp.use-case';
import { SetupTotp } from '../../core/mfa/setup-totp.use-case';
import { VerifyMfa } from '../../core/mfa/verify-mfa.use-case';
import { Login } from '../../core/accounts/login.use-case';
import { AuthenticateSession } from '../../core/accounts/authenticate-session.use-case';
import { accountsHarness, signInOf, TEST_ORIGIN, type AccountsHarness } from './accounts';

export interface MfaHarness extends AccountsHarness {
  setup: SetupTotp;
  confirm: ConfirmTotp;
  disable: DisableTotp;
  verify: VerifyMfa;
  login: Login;
  authenticate: AuthenticateSession;
  /** The user logged in without a second factor (a session straight from the issuer). */
  callerFor(user: User): Promise<UserCaller & { token: string }>;
  /** Sets up and confirms TOTP for `user`; returns the secret and the recovery codes. */
  enrol(user: User): Promise<{ secret: string; recoveryCodes: string[]; caller: UserCaller }>;
  /** The code an authenticator shows for `secret` at the fake clock's now, `offset` steps away. */
  codeNow(secret: string, offset?: number): string;
}

export function mfaHarness(): MfaHarness {
  const h = accountsHarness();
  const p = h.mfaPorts;
  const authenticate = new AuthenticateSession(p);
  const callerFor = async (user: User) => {
    const current = await h.ports.users.findById(user.id);
    const session = current && (await h.issuer.issue(signInOf(current)));
    if (!session) throw new Error(`user ${user.id} cannot get a session`);
    return { ...(await authenticate.execute(session.token)), origin: TEST_ORIGIN, token: session.token };
  };
  const codeNow = (secret: string, offset = 0) => h.totp.codeAt(secret, h.totp.stepAt(h.clock.now()) + offset);
  const setup = new SetupTotp(p);
  const confirm = new ConfirmTotp(p);
  return {
    ...h,
    setup,
    confirm,
    disable: new DisableTotp(p),
    verify: new VerifyMfa(p),
    login: new Login(h.deps),
    authenticate,
    callerFor,
    codeNow,
    async enrol(user) {
      const caller = await callerFor(user);
      const { secret } = await setup.execute(caller);
      const { recoveryCodes } = await confirm.execute(caller, { code: codeNow(secret) });
      // The confirming code's step is now used: move on so the next code is a fresh one.
      h.clock.advanceSeconds(30);
      return { secret, recoveryCodes, caller };
    },
  };
}
