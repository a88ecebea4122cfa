import { describe, expect, it, vi } from 'vitest';
import { accountsHarness, sessionLogin } from '../../test/builders/accounts';
import { AuthenticateSession } from './authenticate-session.use-case';
import { Logout } from './logout.use-case';

function setup() {
  const h = accountsHarness();
  return { h, login: sessionLogin(h), authenticate: new AuthenticateSession(h.ports) };
}

describe('Login', () => {
  it('issues a 256-bit base64url token and stores only its hash', async () => {
    const { h, login, authenticate } = setup();
    const user = await h.aUser({ email: 'a@example.com', password: 'correct horse', role: 'member' });
    const session = await login.execute({ email: ' A@example.com', password: 'correct horse' });
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.expiresAt.getTime() - h.clock.now().getTime()).toBe(86_400_000);
    const stored = [...h.store.sessions.values()];
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(session.token);
    await expect(authenticate.execute(session.token)).resolves.toEqual({
      kind: 'user',
      userId: user.id,
      organizationId: user.organizationId,
      role: 'member',
      sessionId: session.sessionId,
      mfaSatisfied: true,
    });
  });

  it('answers unknown email and wrong password identically, spending a hash on both', async () => {
    const { h, login } = setup();
    await h.aUser({ email: 'a@example.com', password: 'correct horse' });
    const verify = vi.spyOn(h.ports.passwordHasher, 'verify');
    const unknown = await login.execute({ email: 'nobody@example.com', password: 'correct horse' }).catch((e: unknown) => e);
    const wrong = await login.execute({ email: 'a@example.com', password: 'wrong horse' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' });
    expect(wrong).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' });
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify).toHaveBeenNthCalledWith(1, 'correct horse', null);
  });

  it('reveals EMAIL_NOT_VERIFIED only with the right password', async () => {
    const { h, login } = setup();
    await h.aUser({ email: 'a@example.com', password: 'correct horse', verified: false });
    await expect(login.execute({ email: 'a@example.com', password: 'wrong horse' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(login.execute({ email: 'a@example.com', password: 'correct horse' })).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect(h.store.sessions.size).toBe(0);
  });

  it('refuses suspended organizations with ACCOUNT_SUSPENDED, only with the right password', async () => {
    const { h, login } = setup();
    const user = await h.aUser({ email: 'a@example.com', password: 'correct horse' });
    await h.ports.organizations.setStatus(user.organizationId, 'suspended');
    await expect(login.execute({ email: 'a@example.com', password: 'nope nope' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(login.execute({ email: 'a@example.com', password: 'correct horse' })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
  });

  it('gives a new token at every login and revokes the session the browser presented', async () => {
    const { h, login, authenticate } = setup();
    await h.aUser({ email: 'a@example.com', password: 'correct horse' });
    const first = await login.execute({ email: 'a@example.com', password: 'correct horse' });
    const second = await login.execute({ email: 'a@example.com', password: 'correct horse', presentedToken: first.token });
    expect(second.token).not.toBe(first.token);
    await expect(authenticate.execute(first.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate.execute(second.token)).resolves.toMatchObject({ sessionId: second.sessionId });
  });
});

describe('AuthenticateSession', () => {
  it('accepts a session until one millisecond before expiry and refuses it at expiry', async () => {
    const { h, login, authenticate } = setup();
    await h.aUser({ email: 'a@example.com', password: 'correct horse' });
    const { token } = await login.execute({ email: 'a@example.com', password: 'correct horse' });
    h.clock.advance(86_400_000 - 1);
    await expect(authenticate.execute(token)).resolves.toBeDefined();
    h.clock.advance(1);
    await expect(authenticate.execute(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses missing, malformed and unknown tokens alike', async () => {
    const { authenticate } = setup();
    for (const token of [undefined, '', 'short', 'a'.repeat(43), `${'a'.repeat(42)}!`]) {
      await expect(authenticate.execute(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('refuses sessions of suspended organizations, and accepts them again on activation', async () => {
    const { h, login, authenticate } = setup();
    const user = await h.aUser({ email: 'a@example.com', password: 'correct horse' });
    const { token } = await login.execute({ email: 'a@example.com', password: 'correct horse' });
    await h.ports.organizations.setStatus(user.organizationId, 'suspended');
    await expect(authenticate.execute(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await h.ports.organizations.setStatus(user.organizationId, 'active');
    await expect(authenticate.execute(token)).resolves.toBeDefined();
  });
});

describe('Logout', () => {
  it('invalidates only the current session', async () => {
    const { h, login, authenticate } = setup();
    await h.aUser({ email: 'a@example.com', password: 'correct horse' });
    const a = await login.execute({ email: 'a@example.com', password: 'correct horse' });
    const b = await login.execute({ email: 'a@example.com', password: 'correct horse' });
    await new Logout(h.ports).execute(await authenticate.execute(a.token));
    await expect(authenticate.execute(a.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate.execute(b.token)).resolves.toBeDefined();
  });
});
