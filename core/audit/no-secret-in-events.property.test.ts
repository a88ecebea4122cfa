import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passkeysHarness } from '../../test/builders/passkeys';
import { ForgotPassword } from '../accounts/forgot-password.use-case';
import { ResetPassword } from '../accounts/reset-password.use-case';
import { UpdatePassword } from '../accounts/update-password.use-case';
import { Logout } from '../accounts/logout.use-case';
import { RevokeOtherSessions } from '../accounts/revoke-other-sessions.use-case';

/**
 * Whatever secrets a user types or is handed (passwords right and wrong, reset tokens, session
 * tokens, TOTP secrets and codes, recovery codes, challenge tokens), no audited flow lets one into
 * an event: every stored event is searched for every one of them.
 */

/** A secret no event could hold by chance: six random letters or digits, then anything a user may type. */
const secret = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9]{6}$/), fc.string({ minLength: 2, maxLength: 40, unit: 'grapheme' }))
  .map(([head, tail]) => head + tail)
  .filter((password) => [...password].length <= 64);

const distinct = fc.uniqueArray(secret, { minLength: 3, maxLength: 3 }).map(([password, wrong, next]) => ({ password: password!, wrong: wrong!, next: next! }));

describe('no secret in any audit event', () => {
  it('over the account, second-factor and passkey flows, with random passwords', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(distinct, async ({ password, wrong, next }) => {
        const h = passkeysHarness();
        const secrets: string[] = [password, wrong, next];
        const user = await h.aUser({ email: 'ada@example.com', password });
        const origin = { userAgent: 'Firefox/140', ip: '198.51.100.1' };

        // Password sign-ins, right and wrong.
        await expect(h.login.execute({ email: 'ada@example.com', password: wrong, origin })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
        const first = await h.login.execute({ email: 'ada@example.com', password, origin });
        if (first.kind !== 'session') throw new Error('expected a session');
        secrets.push(first.session.token);
        const caller = { ...(await h.authenticate.execute(first.session.token)), origin };

        // Password change, wrong then right; reset by email.
        await expect(new UpdatePassword(h.ports).execute(caller, { currentPassword: wrong, newPassword: next })).rejects.toMatchObject({ code: 'INVALID_CURRENT_PASSWORD' });
        await new UpdatePassword(h.ports).execute(caller, { currentPassword: password, newPassword: next });
        await new ForgotPassword(h.deps).execute({ email: 'ada@example.com' });
        const resetToken = await h.tokenFromEmail('ada@example.com', '/reset-password');
        secrets.push(resetToken);
        await new ResetPassword(h.ports).execute({ token: resetToken, newPassword: password, origin });

        // TOTP on, a challenge answered wrong, by code and by recovery code; sessions revoked; TOTP off.
        const { secret: totpSecret, recoveryCodes, caller: enrolled } = await h.enrol((await h.ports.users.findById(user.id))!);
        secrets.push(totpSecret, ...recoveryCodes);
        const challenge = async () => {
          const outcome = await h.login.execute({ email: 'ada@example.com', password, origin });
          if (outcome.kind !== 'mfa_required') throw new Error('expected a challenge');
          secrets.push(outcome.challenge.token);
          return outcome.challenge.token;
        };
        const code = h.codeNow(totpSecret);
        secrets.push(code);
        await h.verify.execute({ challengeToken: await challenge(), code, origin }).then((signedIn) => secrets.push(signedIn.session.token));
        await h.verify.execute({ challengeToken: await challenge(), recoveryCode: recoveryCodes[0]!, origin }).then((signedIn) => secrets.push(signedIn.session.token));
        await expect(h.verify.execute({ challengeToken: await challenge(), recoveryCode: recoveryCodes[0]!, origin })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
        await new RevokeOtherSessions(h.ports).execute(enrolled);
        await h.disable.execute(enrolled, { password });

        // A passkey added, used, removed; logout.
        const { authenticator, passkeyId } = await h.enrolPasskey(user);
        const started = await h.startLogin.execute();
        secrets.push(started.cookieToken);
        const viaPasskey = await h.loginWithPasskey.execute({ cookieToken: started.cookieToken, response: authenticator.assert(started.options), origin });
        secrets.push(viaPasskey.session.token);
        const late = await h.startLogin.execute();
        secrets.push(late.cookieToken);
        await expect(
          h.loginWithPasskey.execute({ cookieToken: late.cookieToken, response: authenticator.assert(late.options, { withoutUserVerification: true }), origin }),
        ).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
        const passkeyCaller = { ...(await h.authenticate.execute(viaPasskey.session.token)), origin };
        await h.remove.execute(passkeyCaller, { passkeyId });
        await new Logout(h.ports).execute(passkeyCaller);

        await h.failedSignIns.flush();
        const stored = JSON.stringify(await h.auditLog.recorded());
        expect(stored).toContain('login.failed');
        expect(stored).toContain('mfa.recovery_code_used');
        for (const value of secrets) expect(stored, 'a secret reached the audit log').not.toContain(value);
      }),
      { numRuns: 25 },
    );
  });
});
