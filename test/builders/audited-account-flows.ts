import { AuthenticateSession } from '../../core/accounts/authenticate-session.use-case';
import { CreateApiKey } from '../../core/api-keys/create-api-key.use-case';
import { RevokeApiKey } from '../../core/api-keys/revoke-api-key.use-case';
import { ForgotPassword } from '../../core/accounts/forgot-password.use-case';
import { Login } from '../../core/accounts/login.use-case';
import { Logout } from '../../core/accounts/logout.use-case';
import { ResetPassword } from '../../core/accounts/reset-password.use-case';
import { RevokeOtherSessions } from '../../core/accounts/revoke-other-sessions.use-case';
import { RevokeSession } from '../../core/accounts/revoke-session.use-case';
import { UpdatePassword } from '../../core/accounts/update-password.use-case';
import type { User } from '../../core/accounts/user';
import { ConfirmTotp } from '../../core/mfa/confirm-totp.use-case';
import { DisableTotp } from '../../core/mfa/disable-totp.use-case';
import { SetupTotp } from '../../core/mfa/setup-totp.use-case';
import { VerifyMfa } from '../../core/mfa/verify-mfa.use-case';
import { signInOf, TEST_ORIGIN } from './accounts';
import type { AuditedFlow, AuditWorld, FlowSecrets, PreparedFlow } from './audited-flows';
import { apiKeysDeps, type OrganizationsHarness } from './organizations';

/**
 * The account side's audited flows (sign-ins, sign-outs, passwords, sessions, two-factor), as rows
 * of the same table, for the "never a secret" property. They run on the in-memory harness only
 * (their transactions are proved by the account side's own tests). Tokens and codes the service
 * makes itself are `revealed`, so the property searches the log for them too.
 */

const harness = (world: AuditWorld): OrganizationsHarness => {
  if (!world.memory) throw new Error('account flows run on the in-memory world');
  return world.memory;
};

/** A member with `password`, logged in: a real session and its caller. */
export async function signedIn(world: AuditWorld, password: string) {
  const h = harness(world);
  const { organizationId, users } = await world.newOrganization(['org_admin'], password);
  const user = users[0]!;
  const session = await h.issuer.issue(signInOf(user));
  if (!session) throw new Error('no session');
  const caller = { ...(await new AuthenticateSession(h.mfaPorts).execute(session.token)), origin: TEST_ORIGIN };
  return { h, organizationId, user, session, caller };
}

/** `user` with TOTP confirmed; the secret and the recovery codes are revealed. */
async function enrolled(world: AuditWorld, password: string, revealed: string[]) {
  const base = await signedIn(world, password);
  const { h, caller } = base;
  const { secret } = await new SetupTotp(h.mfaPorts).execute(caller);
  const code = h.totp.codeAt(secret, h.totp.stepAt(h.clock.now()));
  const { recoveryCodes } = await new ConfirmTotp(h.mfaPorts).execute(caller, { code });
  h.clock.advanceSeconds(30);
  revealed.push(secret, code, ...recoveryCodes);
  return { ...base, secret, recoveryCodes };
}

/** Starts a password sign-in of an enrolled user; the challenge token is revealed. */
async function challenged(world: AuditWorld, user: User, password: string, revealed: string[]) {
  const outcome = await new Login(harness(world).deps).execute({ email: user.email, password, origin: TEST_ORIGIN });
  if (outcome.kind !== 'mfa_required') throw new Error('expected a second-factor challenge');
  revealed.push(outcome.challenge.token);
  return outcome.challenge.token;
}

/** A row that runs in memory only; what `prepare` pushes to `revealed` is searched for too. */
export const flow = (
  name: string,
  actions: AuditedFlow['actions'],
  prepare: (world: AuditWorld, secrets: FlowSecrets, revealed: string[]) => Promise<Omit<PreparedFlow, 'revealed'>>,
): AuditedFlow => ({
  name,
  actions,
  tables: [],
  memoryOnly: true,
  async prepare(world, secrets) {
    const revealed: string[] = [];
    return { ...(await prepare(world, secrets, revealed)), revealed };
  },
});

export const ACCOUNT_FLOWS: AuditedFlow[] = [
  flow('a member signs in with their password', ['login.succeeded'], async (world, secrets, revealed) => {
    const { organizationId, users } = await world.newOrganization(['member'], secrets.password);
    return {
      organizationId,
      run: async () => {
        const outcome = await new Login(harness(world).deps).execute({ email: users[0]!.email, password: secrets.password, origin: TEST_ORIGIN });
        if (outcome.kind === 'session') revealed.push(outcome.session.token);
      },
    };
  }),
  flow('someone tries a member’s account with a wrong password', ['login.failed'], async (world, secrets) => {
    const { organizationId, users } = await world.newOrganization(['member'], secrets.newPassword);
    return {
      organizationId,
      run: async () => {
        await new Login(harness(world).deps).execute({ email: users[0]!.email, password: secrets.password, origin: TEST_ORIGIN }).catch(() => undefined);
        await harness(world).failedSignIns.flush();
      },
    };
  }),
  flow('a member logs out', ['logout'], async (world, secrets, revealed) => {
    const { h, organizationId, session, caller } = await signedIn(world, secrets.password);
    revealed.push(session.token);
    return { organizationId, run: () => new Logout(h.ports).execute(caller) };
  }),
  flow('a member mistypes their current password, then changes it', ['password.updated'], async (world, secrets, revealed) => {
    const { h, organizationId, session, caller } = await signedIn(world, secrets.password);
    revealed.push(session.token);
    const update = new UpdatePassword(h.ports);
    return {
      organizationId,
      run: async () => {
        await update.execute(caller, { currentPassword: secrets.newPassword, newPassword: secrets.password }).catch(() => undefined);
        await update.execute(caller, { currentPassword: secrets.password, newPassword: secrets.newPassword });
      },
    };
  }),
  flow('a member resets a forgotten password', ['password.reset'], async (world, secrets, revealed) => {
    const h = harness(world);
    const { organizationId, users } = await world.newOrganization(['member'], secrets.password);
    await new ForgotPassword(h.deps).execute({ email: users[0]!.email });
    const token = await h.tokenFromEmail(users[0]!.email, '/reset-password');
    revealed.push(token);
    return { organizationId, run: () => new ResetPassword(h.ports).execute({ token, newPassword: secrets.newPassword, origin: TEST_ORIGIN }) };
  }),
  flow('a member ends all their other sessions', ['session.revoked'], async (world, secrets, revealed) => {
    const { h, organizationId, user, session, caller } = await signedIn(world, secrets.password);
    const others = [await h.issuer.issue(signInOf(user)), await h.issuer.issue(signInOf(user))];
    revealed.push(session.token, ...others.map((other) => other!.token));
    return { organizationId, run: () => new RevokeOtherSessions(h.ports).execute(caller) };
  }),
  flow('a member ends another of their sessions', ['session.revoked'], async (world, secrets, revealed) => {
    const { h, organizationId, user, session, caller } = await signedIn(world, secrets.password);
    const other = await h.issuer.issue(signInOf(user));
    revealed.push(session.token, other!.token);
    return { organizationId, run: () => new RevokeSession(h.ports).execute(caller, { sessionId: other!.sessionId }) };
  }),
  flow('a member turns on two-factor authentication', ['mfa.enabled'], async (world, secrets, revealed) => {
    const { h, organizationId, caller } = await signedIn(world, secrets.password);
    return {
      organizationId,
      run: async () => {
        const { secret } = await new SetupTotp(h.mfaPorts).execute(caller);
        const code = h.totp.codeAt(secret, h.totp.stepAt(h.clock.now()));
        const { recoveryCodes } = await new ConfirmTotp(h.mfaPorts).execute(caller, { code });
        revealed.push(secret, code, ...recoveryCodes);
      },
    };
  }),
  flow('a member turns two-factor authentication off with their password', ['mfa.disabled'], async (world, secrets, revealed) => {
    const { h, organizationId, caller } = await enrolled(world, secrets.password, revealed);
    return { organizationId, run: () => new DisableTotp(h.mfaPorts).execute(caller, { password: secrets.password }) };
  }),
  flow('a member signs in with their authenticator’s code', ['login.succeeded'], async (world, secrets, revealed) => {
    const { h, organizationId, user, secret } = await enrolled(world, secrets.password, revealed);
    const challengeToken = await challenged(world, user, secrets.password, revealed);
    const code = h.totp.codeAt(secret, h.totp.stepAt(h.clock.now()));
    revealed.push(code);
    return {
      organizationId,
      run: async () => {
        const { session } = await new VerifyMfa(h.mfaPorts).execute({ challengeToken, code, origin: TEST_ORIGIN });
        revealed.push(session.token);
      },
    };
  }),
  flow('a member signs in with a recovery code', ['mfa.recovery_code_used', 'login.succeeded'], async (world, secrets, revealed) => {
    const { h, organizationId, user, recoveryCodes } = await enrolled(world, secrets.password, revealed);
    const challengeToken = await challenged(world, user, secrets.password, revealed);
    return {
      organizationId,
      run: async () => {
        const { session } = await new VerifyMfa(h.mfaPorts).execute({ challengeToken, recoveryCode: recoveryCodes[0]!, origin: TEST_ORIGIN });
        revealed.push(session.token);
      },
    };
  }),
  flow('someone replays a recovery code already used', ['login.failed'], async (world, secrets, revealed) => {
    const { h, organizationId, user, recoveryCodes } = await enrolled(world, secrets.password, revealed);
    const used = await new VerifyMfa(h.mfaPorts).execute({ challengeToken: await challenged(world, user, secrets.password, revealed), recoveryCode: recoveryCodes[0]!, origin: TEST_ORIGIN });
    revealed.push(used.session.token);
    const challengeToken = await challenged(world, user, secrets.password, revealed);
    return {
      organizationId,
      run: async () => {
        await new VerifyMfa(h.mfaPorts).execute({ challengeToken, recoveryCode: recoveryCodes[0]!, origin: TEST_ORIGIN }).catch(() => undefined);
        await h.failedSignIns.flush();
      },
    };
  }),
  flow('someone enters a wrong second-factor code', ['login.failed'], async (world, secrets, revealed) => {
    const { h, organizationId, user, secret } = await enrolled(world, secrets.password, revealed);
    const challengeToken = await challenged(world, user, secrets.password, revealed);
    // A random code that is not the one the authenticator shows now (nor one step either side).
    const showing = [-1, 0, 1].map((offset) => h.totp.codeAt(secret, h.totp.stepAt(h.clock.now()) + offset));
    const code = showing.includes(secrets.totpCode) ? String((Number(secrets.totpCode) + 500_000) % 1_000_000).padStart(6, '0') : secrets.totpCode;
    return {
      organizationId,
      run: async () => {
        await new VerifyMfa(h.mfaPorts).execute({ challengeToken, code, origin: TEST_ORIGIN }).catch(() => undefined);
        await h.failedSignIns.flush();
      },
    };
  }),
];

/** API keys made and revoked by an admin; the key, shown once, is revealed. */
export const API_KEY_FLOWS: AuditedFlow[] = [
  flow('an admin creates an API key', ['api_key.created'], async (world, secrets, revealed) => {
    const { h, organizationId, caller } = await signedIn(world, secrets.password);
    return {
      organizationId,
      run: async () => {
        const created = await new CreateApiKey(apiKeysDeps(h)).execute(caller, { name: 'SIEM export', role: 'readonly' });
        revealed.push(created.key);
      },
    };
  }),
  flow('an admin revokes an API key', ['api_key.revoked'], async (world, secrets, revealed) => {
    const { h, organizationId, caller } = await signedIn(world, secrets.password);
    const created = await new CreateApiKey(apiKeysDeps(h)).execute(caller, { name: 'CI deploys', role: 'member' });
    revealed.push(created.key);
    return { organizationId, run: () => new RevokeApiKey(apiKeysDeps(h)).execute(caller, { apiKeyId: created.apiKey.id }) };
  }),
];
