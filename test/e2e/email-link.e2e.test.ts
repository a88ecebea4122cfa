import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientBrowser, type ClientBrowser } from '../support/client-browser';
import { startTestApp, type TestApp } from '../support/app';
import { expectApiError } from '../support/http-assertions';
import { stubEmails, tokenFromEmail } from '../support/mailbox';
import { OtpauthTotpVerifier } from '../../adapters/crypto/otpauth-totp-verifier';
import { TOKENS } from '../../app/container/tokens';

/** Sign-in by an emailed link end to end, through the generated client; the links are read where the outbox delivered them. */
const PASSWORD = 'correct horse battery';
const LINK = '/sign-in/email-link';
const totp = new OtpauthTotpVerifier();

/** One browser: its own cookies and its own client IP, so the per-IP limit is spent only where a test means it. */
const browser = (app: TestApp): ClientBrowser => clientBrowser(app, { subnet: '198.20' });

describe('email sign-in links over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  /** Signs up through the API (the email stays unverified); returns the user id. */
  async function signUp(email: string): Promise<number> {
    const signup = await browser(app).api.POST('/auth/signup', { body: { email, password: PASSWORD } });
    expect(signup.response.status).toBe(201);
    return signup.data!.user_id;
  }

  /** Asks for a link from a fresh browser and reads the `index`-th one emailed to `email`. */
  async function linkFor(email: string, index = 0): Promise<string> {
    const asked = await browser(app).api.POST('/auth/email-link', { body: { email } });
    expect(asked.response.status).toBe(202);
    expect(asked.data).toEqual({ success: true });
    return tokenFromEmail(app, email, LINK, index);
  }

  const sql = (text: string, params: unknown[]) => app.db!.database.run(text, params);

  it('emails a link to the web page, and the page signs in with its token: a session, the email verified', async () => {
    const userId = await signUp('ada@example.com');
    const visitor = browser(app);
    expect((await visitor.api.POST('/auth/email-link', { body: { email: ' Ada@Example.com ' } })).response.status).toBe(202);

    const delivered = await tokenFromEmail(app, 'ada@example.com', LINK);
    const mailbox = await app.request('/dev/mailbox/messages?to=ada@example.com');
    const messages = ((await mailbox.json()) as { messages: { subject: string; tag: string; links: string[] }[] }).messages;
    const link = messages.find((message) => message.tag === 'email-link-sign-in');
    expect(link).toMatchObject({ subject: 'Sign in to tenantkit' });
    expect(link!.links[0]).toMatch(/^http:\/\/localhost:5173\/sign-in\/email-link\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link!.links[0]!).searchParams.get('token')!;
    expect(delivered).toBe(token);
    const [row] = await app.db!.database.db
      .selectFrom('one_time_token')
      .select(['token_hash', 'created_at', 'expires_at'])
      .where('purpose', '=', 'email_link_sign_in')
      .where('user_id', '=', userId)
      .execute();
    // The expiry comes from the app's clock when the link is made, created_at from the insert a
    // moment later: 15 minutes less that moment (the exact edge is the core test's, on a fake clock).
    const lifetime = new Date(row!.expires_at).getTime() - new Date(row!.created_at).getTime();
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
    expect(lifetime).toBeGreaterThan(15 * 60_000 - 1_000);
    expect(row!.token_hash).not.toContain(token);

    const signedIn = await visitor.api.POST('/auth/email-link/verify', { body: { token } });
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.data).toEqual({ user_id: userId });
    expect(visitor.setCookies().find((c) => c.startsWith(`${app.config.sessionCookieName}=`))).toMatch(/HttpOnly/);
    expect((await visitor.api.GET('/users/me')).data).toMatchObject({ id: userId, email: 'ada@example.com', email_verified: true });
    // Ada owns her organization: its audit log names the sign-in and how it was made.
    const events = (await visitor.api.GET('/audit-events')).data as Array<{ action: string; actor: { id: number }; details: Record<string, unknown> }>;
    expect(events.find((event) => event.action === 'login.succeeded')).toMatchObject({ actor: { id: userId }, details: { method: 'email_link' } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('answers an unknown email exactly as a known one, and emails it nothing', async () => {
    const unknown = await browser(app).api.POST('/auth/email-link', { body: { email: 'nobody@example.com' } });
    expect(unknown.response.status).toBe(202);
    expect(unknown.data).toEqual({ success: true });
    await signUp('later@example.com');
    await linkFor('later@example.com');
    expect(stubEmails(app, 'nobody@example.com')).toEqual([]);
  });

  it('a link works once; an unknown token is INVALID_TOKEN', async () => {
    await signUp('once@example.com');
    const token = await linkFor('once@example.com');
    expect((await browser(app).api.POST('/auth/email-link/verify', { body: { token } })).response.status).toBe(200);
    expectApiError(await browser(app).api.POST('/auth/email-link/verify', { body: { token } }), 400, 'INVALID_TOKEN');
    expectApiError(await browser(app).api.POST('/auth/email-link/verify', { body: { token: 'x'.repeat(43) } }), 400, 'INVALID_TOKEN');
    expectApiError(await browser(app).api.POST('/auth/email-link/verify', { body: {} as never }), 422, 'VALIDATION_ERROR');
  });

  it('a newer link voids the older unused one', async () => {
    await signUp('twice@example.com');
    const older = await linkFor('twice@example.com', 0);
    const newer = await linkFor('twice@example.com', 1);
    expectApiError(await browser(app).api.POST('/auth/email-link/verify', { body: { token: older } }), 400, 'INVALID_TOKEN');
    expect((await browser(app).api.POST('/auth/email-link/verify', { body: { token: newer } })).response.status).toBe(200);
  });

  it('an expired link is INVALID_TOKEN', async () => {
    const userId = await signUp('late@example.com');
    const token = await linkFor('late@example.com');
    await sql(`update one_time_token set expires_at = now() - interval '1 millisecond' where purpose = 'email_link_sign_in' and user_id = $1`, [userId]);
    expectApiError(await browser(app).api.POST('/auth/email-link/verify', { body: { token } }), 400, 'INVALID_TOKEN');
  });

  it('a suspended user or organization gets ACCOUNT_SUSPENDED, and no session', async () => {
    const userId = await signUp('held@example.com');
    const token = await linkFor('held@example.com');
    await sql(`update app_user set status = 'suspended' where id = $1`, [userId]);
    const visitor = browser(app);
    expectApiError(await visitor.api.POST('/auth/email-link/verify', { body: { token } }), 401, 'ACCOUNT_SUSPENDED');
    await sql(`update app_user set status = 'active' where id = $1`, [userId]);
    await sql(`update organization set status = 'suspended' where id = (select organization_id from app_user where id = $1)`, [userId]);
    expectApiError(await visitor.api.POST('/auth/email-link/verify', { body: { token } }), 401, 'ACCOUNT_SUSPENDED');
    expect(visitor.jar.get(app.config.sessionCookieName)).toBeUndefined();
    await app.server.container.get(TOKENS.FailedSignIns).flush();
    const [failures] = await app.db!.database.select<{ n: number }>(
      `select count(*)::int as n from audit_event where action = 'login.failed' and actor_id = $1 and details->>'method' = 'email_link' and details->>'reason' = 'account_suspended'`,
      [String(userId)],
    );
    expect(failures!.n).toBe(2);
  });

  it('with MFA on, the link leads to the same second step as a password: the challenge cookie, then a code', async () => {
    const email = 'second@example.com';
    await signUp(email);
    const owner = browser(app);
    expect((await owner.api.POST('/auth/email-link/verify', { body: { token: await linkFor(email) } })).response.status).toBe(200);
    const { secret } = (await owner.api.POST('/auth/mfa/totp/setup')).data!;
    expect((await owner.api.POST('/auth/mfa/totp/confirm', { body: { code: totp.codeAt(secret, totp.stepAt(new Date())) } })).response.status).toBe(200);

    const visitor = browser(app);
    const step = await visitor.api.POST('/auth/email-link/verify', { body: { token: await linkFor(email, 1) } });
    expect(step.response.status).toBe(200);
    expect(step.data).toEqual({ mfa_required: true });
    expect(visitor.setCookies().find((c) => c.startsWith('mfa_challenge='))).toMatch(/^mfa_challenge=[\w-]{43}; Path=\/; Max-Age=300; HttpOnly; SameSite=Lax$/);
    expect(visitor.jar.get(app.config.sessionCookieName)).toBeUndefined();
    const verified = await visitor.api.POST('/auth/mfa/verify', { body: { code: totp.codeAt(secret, totp.stepAt(new Date()) + 1) } });
    expect(verified.response.status).toBe(200);
    expect((await visitor.api.GET('/users/me')).data).toMatchObject({ email });
  });

  it('allows 3 requests an hour per client IP, then 429 with Retry-After', async () => {
    const visitor = browser(app);
    for (const n of [1, 2, 3]) expect((await visitor.api.POST('/auth/email-link', { body: { email: `ip${n}@example.com` } })).response.status).toBe(202);
    const limited = await visitor.api.POST('/auth/email-link', { body: { email: 'ip4@example.com' } });
    expectApiError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it.each(['capped@example.com', 'capped-nobody@example.com'])('allows 3 requests an hour for %s from any IPs, then 429 with Retry-After', async (email) => {
    if (email === 'capped@example.com') await signUp(email);
    for (const variant of [email, email.toUpperCase(), ` ${email}`]) {
      expect((await browser(app).api.POST('/auth/email-link', { body: { email: variant } })).response.status).toBe(202);
    }
    const limited = await browser(app).api.POST('/auth/email-link', { body: { email } });
    expectApiError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(3500);
  });
});

describe('email sign-in links switched off (APP_EMAIL_LINK_SIGNIN=false)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_EMAIL_LINK_SIGNIN: 'false' });
  });
  afterAll(() => app?.close());

  it('answers 404 NOT_FOUND on both routes, before any rate limit, and emails nothing', async () => {
    const signup = await browser(app).api.POST('/auth/signup', { body: { email: 'off@example.com', password: PASSWORD } });
    expect(signup.response.status).toBe(201);
    const visitor = browser(app);
    for (let i = 0; i < 4; i += 1) expectApiError(await visitor.api.POST('/auth/email-link', { body: { email: 'off@example.com' } }), 404, 'NOT_FOUND');
    expectApiError(await visitor.api.POST('/auth/email-link/verify', { body: { token: 'x'.repeat(43) } }), 404, 'NOT_FOUND');
    await tokenFromEmail(app, 'off@example.com', '/verify-email');
    expect(stubEmails(app, 'off@example.com').filter((email) => email.text.includes(LINK))).toEqual([]);
  });
});
