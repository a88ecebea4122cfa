import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountsHarness, type AccountsHarness } from '../../test/builders/accounts';
import { mfaHarness } from '../../test/builders/mfa';
import { AuthenticateSession } from './authenticate-session.use-case';
import { RequestEmailLink } from './request-email-link.use-case';
import { VerifyEmailLink } from './verify-email-link.use-case';

const LINK = '/sign-in/email-link';

function linkFlow(h: AccountsHarness = accountsHarness()) {
  const request = new RequestEmailLink(h.deps);
  const verify = new VerifyEmailLink(h.deps);
  /** Asks for a link and runs its delivery, as the route does after answering. */
  const ask = async (email: string) => (await request.execute({ email }))();
  const linkFor = async (email: string) => {
    await ask(email);
    return h.tokenFromEmail(email, LINK);
  };
  return { h, request, verify, ask, linkFor };
}

describe('RequestEmailLink', () => {
  it('emails an existing account a link to the web app, storing only the token hash, in the outbox', async () => {
    const { h, ask } = linkFlow();
    await h.aUser({ email: 'ada@example.com' });
    await ask('  ADA@example.com ');
    const [email] = await h.outbox.pending();
    expect(email).toMatchObject({ to: 'ada@example.com', subject: 'Sign in to tenantkit', tag: 'email-link-sign-in' });
    const token = await h.tokenFromEmail('ada@example.com', LINK);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(email!.text).toContain(`https://app.example.com${LINK}?token=${token}`);
    const [row] = [...h.store.oneTimeTokens.values()];
    expect(row).toMatchObject({ purpose: 'email_link_sign_in', token_hash: createHash('sha256').update(token).digest('hex') });
    expect(JSON.stringify([...h.store.oneTimeTokens.values()])).not.toContain(token);
  });

  it('answers an unknown email the same way and emails nothing', async () => {
    const { h, request } = linkFlow();
    const delivery = await request.execute({ email: 'nobody@example.com' });
    await expect(delivery()).resolves.toBeUndefined();
    expect(await h.outbox.pending()).toEqual([]);
    expect(h.store.oneTimeTokens.size).toBe(0);
  });

  it('emails no link to a suspended user or a member of a suspended organization', async () => {
    const { h, ask } = linkFlow();
    const user = await h.aUser({ email: 'ada@example.com' });
    const other = await h.aUser({ email: 'bob@example.com' });
    await h.ports.users.setStatus(user.organizationId, user.id, 'suspended');
    await h.ports.organizations.setStatus(other.organizationId, 'suspended');
    await ask('ada@example.com');
    await ask('bob@example.com');
    expect(await h.outbox.pending()).toEqual([]);
  });

  it('writes the token and its email together: an email that cannot be queued leaves no token', async () => {
    const { h, ask } = linkFlow();
    await h.aUser({ email: 'ada@example.com' });
    h.outbox.enqueue = () => Promise.reject(new Error('outbox down'));
    await expect(ask('ada@example.com')).rejects.toThrow('outbox down');
    expect(h.store.oneTimeTokens.size).toBe(0);
  });

  it('allows 3 requests an hour per normalized email, known or not, then RATE_LIMITED with the wait', async () => {
    const { h, request } = linkFlow();
    await h.aUser({ email: 'ada@example.com' });
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      await request.execute({ email });
      await request.execute({ email: email.toUpperCase() });
      await request.execute({ email: ` ${email}` });
      await expect(request.execute({ email })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', details: { retry_after: 3600 } });
    }
    await expect(request.execute({ email: 'carol@example.com' })).resolves.toBeTypeOf('function');
    h.clock.advanceSeconds(3600);
    await expect(request.execute({ email: 'ada@example.com' })).resolves.toBeTypeOf('function');
  });
});

describe('VerifyEmailLink', () => {
  it('signs in with a session, once, and marks the email verified', async () => {
    const { h, verify, linkFor } = linkFlow();
    const user = await h.aUser({ email: 'ada@example.com', verified: false });
    const token = await linkFor('ada@example.com');
    const outcome = await verify.execute({ token });
    expect(outcome).toMatchObject({ kind: 'session', userId: user.id });
    if (outcome.kind !== 'session') return;
    await expect(new AuthenticateSession(h.ports).execute(outcome.session.token)).resolves.toMatchObject({ userId: user.id });
    expect((await h.ports.users.findById(user.id))?.emailVerified).toBe(true);
    await expect(verify.execute({ token })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses an unknown token, and a token of another purpose', async () => {
    const { h, verify } = linkFlow();
    await expect(verify.execute({ token: 'A'.repeat(43) })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    const user = await h.aUser({ email: 'ada@example.com' });
    await h.ports.tokens.issue({ userId: user.id, purpose: 'reset_password', tokenHash: h.ports.tokenHasher.hash('reset'), expiresAt: new Date('2100-01-01') });
    await expect(verify.execute({ token: 'reset' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('lives exactly 15 minutes', async () => {
    const { h, verify, linkFor } = linkFlow();
    await h.aUser({ email: 'ada@example.com' });
    const onTime = await linkFor('ada@example.com');
    h.clock.advance(15 * 60_000 - 1);
    await expect(verify.execute({ token: onTime })).resolves.toMatchObject({ kind: 'session' });
    const late = await linkFor('ada@example.com');
    h.clock.advance(15 * 60_000);
    await expect(verify.execute({ token: late })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('a newer link voids the older unused one', async () => {
    const { h, verify, linkFor } = linkFlow();
    await h.aUser({ email: 'ada@example.com' });
    const older = await linkFor('ada@example.com');
    const newer = await linkFor('ada@example.com');
    expect(newer).not.toBe(older);
    await expect(verify.execute({ token: older })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(verify.execute({ token: newer })).resolves.toMatchObject({ kind: 'session' });
  });

  it('answers ACCOUNT_SUSPENDED for a suspended user or organization, leaving the link and the email as they were', async () => {
    const { h, verify, linkFor } = linkFlow();
    const user = await h.aUser({ email: 'ada@example.com', verified: false });
    const token = await linkFor('ada@example.com');
    await h.ports.users.setStatus(user.organizationId, user.id, 'suspended');
    await expect(verify.execute({ token })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await h.ports.users.setStatus(user.organizationId, user.id, 'active');
    await h.ports.organizations.setStatus(user.organizationId, 'suspended');
    await expect(verify.execute({ token })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    expect((await h.ports.users.findById(user.id))?.emailVerified).toBe(false);
    await h.ports.organizations.setStatus(user.organizationId, 'active');
    await expect(verify.execute({ token })).resolves.toMatchObject({ kind: 'session' });
  });

  it('revokes the session the browser presented before issuing the new one', async () => {
    const { h, verify, linkFor } = linkFlow();
    const user = await h.aUser({ email: 'ada@example.com' });
    const old = await h.issuer.issue({ userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method: 'password' });
    const token = await linkFor('ada@example.com');
    await verify.execute({ token, presentedToken: old!.token });
    await expect(new AuthenticateSession(h.ports).execute(old!.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('asks a user with MFA on for the second factor, as a password login does: a challenge, no session', async () => {
    const h = mfaHarness();
    const { verify, linkFor } = linkFlow(h);
    const user = await h.aUser({ email: 'ada@example.com' });
    const { secret } = await h.enrol(user);
    const sessionsBefore = h.store.sessions.size;
    const outcome = await verify.execute({ token: await linkFor('ada@example.com') });
    expect(outcome).toMatchObject({ kind: 'mfa_required', userId: user.id });
    expect(h.store.sessions.size).toBe(sessionsBefore);
    if (outcome.kind !== 'mfa_required') return;
    await expect(h.verify.execute({ challengeToken: outcome.challenge.token, code: h.codeNow(secret) })).resolves.toMatchObject({ userId: user.id });
  });

  it('records login.succeeded with the method email_link, naming the session and the origin, in the sign-in', async () => {
    const { h, verify, linkFor } = linkFlow();
    const user = await h.aUser({ email: 'ada@example.com' });
    const origin = { userAgent: 'Firefox/140', ip: '198.51.100.23' };
    const token = await linkFor('ada@example.com');
    const outcome = await verify.execute({ token, origin });
    if (outcome.kind !== 'session') throw new Error('expected a session');
    await h.failedSignIns.flush();
    expect(await h.auditLog.recorded()).toMatchObject([
      {
        organizationId: user.organizationId,
        action: 'login.succeeded',
        actor: { type: 'user', id: user.id },
        target: { type: 'session', id: String(outcome.session.sessionId) },
        origin: { ip: origin.ip, userAgent: origin.userAgent },
        details: { method: 'email_link' },
      },
    ]);
    expect(JSON.stringify(await h.auditLog.recorded())).not.toContain(token);
  });

  it('records login.failed (email_link, account_suspended) for a suspended account after answering, and nothing for an unknown token', async () => {
    const { h, verify, linkFor } = linkFlow();
    const user = await h.aUser({ email: 'ada@example.com' });
    const token = await linkFor('ada@example.com');
    await expect(verify.execute({ token: 'A'.repeat(43) })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await h.ports.organizations.setStatus(user.organizationId, 'suspended');
    await expect(verify.execute({ token, origin: { userAgent: null, ip: '203.0.113.9' } })).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    expect(await h.auditLog.recorded()).toEqual([]);
    await h.failedSignIns.flush();
    expect(await h.auditLog.recorded()).toMatchObject([
      { organizationId: user.organizationId, action: 'login.failed', actor: { type: 'user', id: user.id }, target: null, origin: { ip: '203.0.113.9' }, details: { method: 'email_link', reason: 'account_suspended' } },
    ]);
  });

  it('with MFA on, records no sign-in until the second factor completes it', async () => {
    const h = mfaHarness();
    const { verify, linkFor } = linkFlow(h);
    const user = await h.aUser({ email: 'ada@example.com' });
    const { secret } = await h.enrol(user);
    const successes = async () => (await h.auditLog.recorded()).filter((event) => event.action === 'login.succeeded').length;
    const before = await successes();
    const outcome = await verify.execute({ token: await linkFor('ada@example.com') });
    if (outcome.kind !== 'mfa_required') throw new Error('expected a challenge');
    expect(await successes()).toBe(before);
    await h.verify.execute({ challengeToken: outcome.challenge.token, code: h.codeNow(secret) });
    expect(await successes()).toBe(before + 1);
    expect((await h.auditLog.recorded()).at(-1)).toMatchObject({ action: 'login.succeeded', details: { method: 'totp' } });
  });
});
