import { describe, expect, it } from 'vitest';
import { accountsHarness, sessionLogin, TEST_ORIGIN } from '../../test/builders/accounts';
import type { AuditEvent } from '../audit/audit-event';
import { AuthenticateSession } from './authenticate-session.use-case';
import { ForgotPassword } from './forgot-password.use-case';
import { Login } from './login.use-case';
import { Logout } from './logout.use-case';
import { ResetPassword } from './reset-password.use-case';
import { RevokeOtherSessions } from './revoke-other-sessions.use-case';
import { RevokeSession } from './revoke-session.use-case';
import { UpdatePassword } from './update-password.use-case';

const PASSWORD = 'correct horse battery';
const ORIGIN = { userAgent: 'Firefox/140', ip: '198.51.100.23' };

async function world() {
  const h = accountsHarness();
  const ada = await h.aUser({ email: 'ada@example.com', password: PASSWORD });
  const login = new Login(h.deps);
  const authenticate = new AuthenticateSession(h.ports);
  const signIn = async () => {
    const session = await sessionLogin(h).execute({ email: 'ada@example.com', password: PASSWORD, origin: ORIGIN });
    return { ...session, caller: { ...(await authenticate.execute(session.token)), origin: TEST_ORIGIN } };
  };
  /** What the log holds, once the failures written off the request's path have landed. */
  const recorded = async (): Promise<AuditEvent[]> => {
    await h.failedSignIns.flush();
    return h.auditLog.recorded();
  };
  return { h, ada, login, authenticate, signIn, recorded };
}

describe('audit events of sign-ins', () => {
  it('a password login records login.succeeded in the organization, naming the session, the origin and the method', async () => {
    const { h, ada, signIn, recorded } = await world();
    const { sessionId } = await signIn();
    expect(await recorded()).toEqual([
      {
        id: expect.any(Number),
        organizationId: ada.organizationId,
        occurredAt: h.clock.now(),
        action: 'login.succeeded',
        actor: { type: 'user', id: ada.id, email: 'ada@example.com', name: null },
        target: { type: 'session', id: String(sessionId) },
        origin: { ip: ORIGIN.ip, userAgent: ORIGIN.userAgent },
        details: { method: 'password' },
      },
    ]);
  });

  it('a wrong password of an existing account records login.failed with the reason, never the password', async () => {
    const { ada, login, recorded } = await world();
    await expect(login.execute({ email: 'ada@example.com', password: 'Tr0ub4dor&3-guess', origin: ORIGIN })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const events = await recorded();
    expect(events).toMatchObject([
      { organizationId: ada.organizationId, action: 'login.failed', actor: { type: 'user', id: ada.id }, target: null, origin: { ip: ORIGIN.ip }, details: { method: 'password', reason: 'invalid_credentials' } },
    ]);
    expect(JSON.stringify(events)).not.toContain('Tr0ub4dor');
  });

  it('a failure for an email with no account writes nothing: it belongs to no organization', async () => {
    const { login, recorded } = await world();
    await expect(login.execute({ email: 'nobody@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await recorded()).toEqual([]);
  });

  it('the failure is not waited for: the answer comes before the event exists', async () => {
    const { login, h } = await world();
    await expect(login.execute({ email: 'ada@example.com', password: 'wrong password' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await h.auditLog.recorded()).toEqual([]);
    await h.failedSignIns.flush();
    expect(await h.auditLog.recorded()).toHaveLength(1);
  });

  it('suspended and unverified accounts record their failure reasons', async () => {
    const { h, ada, login, recorded } = await world();
    await h.ports.users.setStatus(ada.organizationId, ada.id, 'suspended');
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    const bob = await h.aUser({ email: 'bob@example.com', password: PASSWORD, verified: false });
    await expect(login.execute({ email: 'bob@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect((await recorded()).map((e) => [e.actor.id, e.details])).toEqual([
      [ada.id, { method: 'password', reason: 'account_suspended' }],
      [bob.id, { method: 'password', reason: 'email_not_verified' }],
    ]);
  });

  it('a failed event write is logged, never turned into an answer', async () => {
    const { h, login } = await world();
    h.auditLog.failNextRecord();
    await expect(login.execute({ email: 'ada@example.com', password: 'wrong password' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await h.failedSignIns.flush();
    expect(await h.auditLog.recorded()).toEqual([]);
  });
});

describe('the success event shares the session\'s transaction', () => {
  it('an event whose insert fails takes the session down with it: no session, no event, the login fails', async () => {
    const { h, login } = await world();
    h.auditLog.failNextRecord();
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).rejects.toThrow('audit insert failed');
    expect([...h.store.sessions.values()]).toEqual([]);
    expect(await h.auditLog.recorded()).toEqual([]);
  });

  it('a session that cannot be made (credentials changed meanwhile) records no event', async () => {
    const { h, ada } = await world();
    await expect(h.issuer.issue({ userId: ada.id, organizationId: ada.organizationId, credentialsVersion: ada.credentialsVersion + 1, method: 'password' })).resolves.toBeNull();
    expect(await h.auditLog.recorded()).toEqual([]);
  });
});

describe('audit events of account changes', () => {
  it('logout records logout with the session, and rolls back with a failed event', async () => {
    const { h, ada, signIn, authenticate, recorded } = await world();
    const a = await signIn();
    h.auditLog.failNextRecord();
    await expect(new Logout(h.ports).execute(a.caller)).rejects.toThrow();
    await expect(authenticate.execute(a.token)).resolves.toBeDefined();
    await new Logout(h.ports).execute(a.caller);
    await expect(authenticate.execute(a.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await recorded()).at(-1)).toMatchObject({
      organizationId: ada.organizationId,
      action: 'logout',
      actor: { type: 'user', id: ada.id },
      target: { type: 'session', id: String(a.sessionId) },
      origin: TEST_ORIGIN,
    });
  });

  it('password.updated with the sessions it revoked; a failed event keeps the old password', async () => {
    const { h, login, signIn, recorded } = await world();
    const a = await signIn();
    await signIn();
    const update = new UpdatePassword(h.ports);
    h.auditLog.failNextRecord();
    await expect(update.execute(a.caller, { currentPassword: PASSWORD, newPassword: 'a new password' })).rejects.toThrow();
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).resolves.toMatchObject({ kind: 'session' });
    await update.execute(a.caller, { currentPassword: PASSWORD, newPassword: 'a new password' });
    const event = (await recorded()).at(-1)!;
    expect(event).toMatchObject({ action: 'password.updated', actor: { id: a.userId }, origin: TEST_ORIGIN, details: { revoked_sessions: 2 } });
    expect(JSON.stringify(event)).not.toContain('a new password');
  });

  it('a password change that fails records nothing', async () => {
    const { h, signIn, recorded } = await world();
    const a = await signIn();
    await expect(new UpdatePassword(h.ports).execute(a.caller, { currentPassword: 'not it', newPassword: 'a new password' })).rejects.toMatchObject({
      code: 'INVALID_CURRENT_PASSWORD',
    });
    expect((await recorded()).map((e) => e.action)).toEqual(['login.succeeded']);
  });

  it('password.reset acted by the account, from the origin of the reset request; a failed event leaves the token usable', async () => {
    const { h, ada, login, recorded } = await world();
    await new ForgotPassword(h.deps).execute({ email: 'ada@example.com' });
    const token = await h.tokenFromEmail('ada@example.com', '/reset-password');
    const reset = new ResetPassword(h.ports);
    h.auditLog.failNextRecord();
    await expect(reset.execute({ token, newPassword: 'reset password', origin: ORIGIN })).rejects.toThrow();
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).resolves.toMatchObject({ kind: 'session' });
    await reset.execute({ token, newPassword: 'reset password', origin: ORIGIN });
    expect((await recorded()).at(-1)).toMatchObject({
      organizationId: ada.organizationId,
      action: 'password.reset',
      actor: { type: 'user', id: ada.id },
      origin: { ip: ORIGIN.ip, userAgent: ORIGIN.userAgent },
      details: { revoked_sessions: 1 },
    });
    // A used token is no change: nothing more is written.
    await expect(reset.execute({ token, newPassword: 'again password' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await recorded()).filter((e) => e.action === 'password.reset')).toHaveLength(1);
  });

  it('session.revoked for one session, and once for "the others" with how many', async () => {
    const { h, signIn, recorded } = await world();
    const a = await signIn();
    const b = await signIn();
    await signIn();
    await new RevokeSession(h.ports).execute(a.caller, { sessionId: b.sessionId });
    await expect(new RevokeSession(h.ports).execute(a.caller, { sessionId: 999 })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await new RevokeOtherSessions(h.ports).execute(a.caller);
    await new RevokeOtherSessions(h.ports).execute(a.caller);
    const revoked = (await recorded()).filter((e) => e.action === 'session.revoked');
    expect(revoked.map((e) => [e.target, e.details])).toEqual([
      [{ type: 'session', id: String(b.sessionId) }, { current: false }],
      [null, { others: true, revoked: 1 }],
    ]);
  });

  it('a revocation whose event fails leaves the session alive', async () => {
    const { h, authenticate, signIn } = await world();
    const a = await signIn();
    const b = await signIn();
    h.auditLog.failNextRecord();
    await expect(new RevokeSession(h.ports).execute(a.caller, { sessionId: b.sessionId })).rejects.toThrow();
    await expect(authenticate.execute(b.token)).resolves.toBeDefined();
    h.auditLog.failNextRecord();
    await expect(new RevokeOtherSessions(h.ports).execute(a.caller)).rejects.toThrow();
    await expect(authenticate.execute(b.token)).resolves.toBeDefined();
  });
});
