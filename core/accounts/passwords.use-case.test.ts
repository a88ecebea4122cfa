import { describe, expect, it } from 'vitest';
import { accountsHarness, sessionLogin, signInOf } from '../../test/builders/accounts';
import { AuthenticateSession } from './authenticate-session.use-case';
import { ForgotPassword } from './forgot-password.use-case';
import { ResetPassword } from './reset-password.use-case';
import { UpdatePassword } from './update-password.use-case';

async function withTwoSessions() {
  const h = accountsHarness();
  const user = await h.aUser({ email: 'a@example.com', password: 'old password' });
  const login = sessionLogin(h);
  const authenticate = new AuthenticateSession(h.ports);
  const a = await login.execute({ email: 'a@example.com', password: 'old password' });
  const b = await login.execute({ email: 'a@example.com', password: 'old password' });
  return { h, user, login, authenticate, a, b };
}

describe('ForgotPassword + ResetPassword', () => {
  it('resets the password and revokes every session of the user, including the one in use', async () => {
    const { h, login, authenticate, a, b } = await withTwoSessions();
    await new ForgotPassword(h.deps).execute({ email: 'A@example.com' });
    const token = await h.tokenFromEmail('a@example.com', '/reset-password');
    await new ResetPassword(h.ports).execute({ token, newPassword: 'new password' });
    await expect(authenticate.execute(a.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate.execute(b.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(login.execute({ email: 'a@example.com', password: 'old password' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(login.execute({ email: 'a@example.com', password: 'new password' })).resolves.toBeDefined();
  });

  it('emails no reset link to a member of a suspended organization', async () => {
    const { h, user } = await withTwoSessions();
    await h.ports.organizations.setStatus(user.organizationId, 'suspended');
    await new ForgotPassword(h.deps).execute({ email: 'a@example.com' });
    expect(await h.outbox.pending()).toEqual([]);
    await h.ports.organizations.setStatus(user.organizationId, 'active');
    await new ForgotPassword(h.deps).execute({ email: 'a@example.com' });
    await expect(h.tokenFromEmail('a@example.com', '/reset-password')).resolves.toBeTruthy();
  });

  it('reset tokens are single-use and expire at exactly one hour', async () => {
    const { h } = await withTwoSessions();
    const forgot = new ForgotPassword(h.deps);
    const reset = new ResetPassword(h.ports);
    await forgot.execute({ email: 'a@example.com' });
    const token = await h.tokenFromEmail('a@example.com', '/reset-password');
    await reset.execute({ token, newPassword: 'new password' });
    await expect(reset.execute({ token, newPassword: 'newer password' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });

    await forgot.execute({ email: 'a@example.com' });
    const late = await h.tokenFromEmail('a@example.com', '/reset-password');
    h.clock.advanceSeconds(3600);
    await expect(reset.execute({ token: late, newPassword: 'newer password' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('checks the new password before spending the token', async () => {
    const { h } = await withTwoSessions();
    await new ForgotPassword(h.deps).execute({ email: 'a@example.com' });
    const token = await h.tokenFromEmail('a@example.com', '/reset-password');
    await expect(new ResetPassword(h.ports).execute({ token, newPassword: 'x'.repeat(65) })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(new ResetPassword(h.ports).execute({ token, newPassword: 'x'.repeat(64) })).resolves.toBeUndefined();
  });

  it('sends nothing for unknown emails', async () => {
    const h = accountsHarness();
    await new ForgotPassword(h.deps).execute({ email: 'nobody@example.com' });
    expect(await h.outbox.pending()).toHaveLength(0);
  });
});

describe('UpdatePassword', () => {
  it('keeps the current session and revokes every other', async () => {
    const { h, login, authenticate, a, b } = await withTwoSessions();
    const caller = await authenticate.execute(a.token);
    await new UpdatePassword(h.ports).execute(caller, { currentPassword: 'old password', newPassword: 'new password' });
    await expect(authenticate.execute(a.token)).resolves.toBeDefined();
    await expect(authenticate.execute(b.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(login.execute({ email: 'a@example.com', password: 'new password' })).resolves.toBeDefined();
  });

  it('requires the current password', async () => {
    const { h, authenticate, a, b } = await withTwoSessions();
    const caller = await authenticate.execute(a.token);
    await expect(
      new UpdatePassword(h.ports).execute(caller, { currentPassword: 'wrong password', newPassword: 'new password' }),
    ).rejects.toMatchObject({ code: 'INVALID_CURRENT_PASSWORD' });
    await expect(authenticate.execute(b.token)).resolves.toBeDefined();
  });

  it('refuses accounts without a password (identity provider) with INVALID_CURRENT_PASSWORD', async () => {
    const { h, user, authenticate } = await withTwoSessions();
    const version = await h.ports.users.setPasswordHash(user.id, null);
    const session = await h.issuer.issue({ ...signInOf(user), credentialsVersion: version! });
    await expect(
      new UpdatePassword(h.ports).execute(await authenticate.execute(session!.token), { currentPassword: 'old password', newPassword: 'new password' }),
    ).rejects.toMatchObject({ code: 'INVALID_CURRENT_PASSWORD' });
  });
});
