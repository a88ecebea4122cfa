import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { HttpSession } from '../support/http-session';
import { tokenFromEmail } from '../support/mailbox';
import { expectErrorResponse, expectSecurityHeaders } from '../support/http-assertions';
import { insertOrganization } from '../support/sessions';
import { BcryptPasswordHasher } from '../../adapters/crypto/bcrypt-password-hasher';

const PASSWORD = 'correct horse battery';

/** Every error here is checked for status, the exact ErrorResponse shape and all security headers. */
async function expectError(response: Response, status: number, code: string, options: { hsts?: boolean } = {}) {
  expectSecurityHeaders(response, options);
  return (await expectErrorResponse(response, status, code)) as { details: Record<string, unknown> };
}

/** Signs up, verifies through the emailed link and logs in; returns the logged-in browser. */
async function verifiedUser(app: TestApp, email: string) {
  const browser = new HttpSession(app);
  expect((await browser.post('/auth/signup', { email, password: PASSWORD })).status).toBe(201);
  const token = await tokenFromEmail(app, email, '/verify-email');
  expect((await browser.post('/auth/verify-email', { token })).status).toBe(200);
  expect((await browser.post('/auth/login', { email, password: PASSWORD })).status).toBe(200);
  return browser;
}

describe('accounts over HTTP (dev, B2C)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('signup → verification email → verify → login → /users/me → logout', async () => {
    const browser = new HttpSession(app);
    const signup = await browser.post('/auth/signup', { email: ' Ada@Example.com ', password: PASSWORD, first_name: 'Ada', last_name: 'L' });
    expect(signup.status).toBe(201);
    const { user_id } = (await signup.json()) as { user_id: number };

    await expectError(await browser.post('/auth/login', { email: 'ada@example.com', password: PASSWORD }), 403, 'EMAIL_NOT_VERIFIED');

    const token = await tokenFromEmail(app, 'ada@example.com', '/verify-email');
    const verified = await browser.post('/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ success: true });
    await expectError(await browser.post('/auth/verify-email', { token }), 400, 'INVALID_TOKEN');

    const login = await browser.post('/auth/login', { email: 'ADA@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
    expect(await login.json()).toEqual({ user_id });
    const [cookie] = browser.lastSetCookies;
    expect(cookie).toMatch(/^session_id=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/);

    const me = await browser.get('/users/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      id: user_id,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'L',
      email_verified: true,
      has_password: true,
      organization_id: expect.any(Number),
      organization_name: "Ada L's organization",
      role: { name: 'org_admin', precedence: 2 },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const sessionToken = browser.cookie('session_id')!;
    const logout = await browser.post('/auth/logout');
    expect(logout.status).toBe(204);
    expect(browser.lastSetCookies).toEqual(['session_id=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax']);
    browser.setCookie('session_id', sessionToken);
    await expectError(await browser.get('/users/me'), 401, 'UNAUTHORIZED');

    // Logging out again with the dead session: still 401, and the cookie is cleared anyway.
    browser.setCookie('session_id', sessionToken);
    await expectError(await browser.post('/auth/logout'), 401, 'UNAUTHORIZED');
    expect(browser.lastSetCookies).toEqual(['session_id=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax']);
    // Without any cookie there is nothing to clear.
    const anonymous = new HttpSession(app);
    await expectError(await anonymous.post('/auth/logout'), 401, 'UNAUTHORIZED');
    expect(anonymous.lastSetCookies).toEqual([]);
  });

  it('answers unknown email and wrong password with the same INVALID_CREDENTIALS', async () => {
    await verifiedUser(app, 'grace@example.com');
    const browser = new HttpSession(app);
    const unknown = await expectError(await browser.post('/auth/login', { email: 'nobody@example.com', password: PASSWORD }), 401, 'INVALID_CREDENTIALS');
    const wrong = await expectError(await browser.post('/auth/login', { email: 'grace@example.com', password: 'wrong password' }), 401, 'INVALID_CREDENTIALS');
    expect(unknown).toMatchObject({ message: 'Invalid email or password' });
    expect(wrong).toMatchObject({ message: 'Invalid email or password' });
  });

  it('refuses a second signup with the same email (409) and bad input (422 with field details)', async () => {
    const browser = new HttpSession(app);
    expect((await browser.post('/auth/signup-org', { email: 'org@example.com', password: PASSWORD, organization_name: 'Acme' })).status).toBe(201);
    await expectError(await browser.post('/auth/signup', { email: 'ORG@example.com', password: PASSWORD }), 409, 'EMAIL_ALREADY_EXISTS');
    // Each attempt below from its own client: signup allows 3 per hour per IP.
    const tooShort = await expectError(
      await new HttpSession(app).post('/auth/signup', { email: 'not-an-email', password: 'x'.repeat(7) }),
      422,
      'VALIDATION_ERROR',
    );
    expect(tooShort.details).toMatchObject({ 'body.email': expect.any(String), 'body.password': expect.any(String) });
    await expectError(await new HttpSession(app).post('/auth/signup', { email: 'long@example.com', password: 'x'.repeat(65) }), 422, 'VALIDATION_ERROR');
    expect((await new HttpSession(app).post('/auth/signup', { email: 'long@example.com', password: '😀'.repeat(64) })).status).toBe(201);
  });

  it('forgot (202 for anyone) → reset → every session of the user is revoked', async () => {
    const first = await verifiedUser(app, 'reset@example.com');
    const second = new HttpSession(app);
    expect((await second.post('/auth/login', { email: 'reset@example.com', password: PASSWORD })).status).toBe(200);

    const forgotUnknown = await first.post('/password/forgot', { email: 'nobody@example.com' });
    expect(forgotUnknown.status).toBe(202);
    expect(await forgotUnknown.json()).toEqual({ success: true });
    expect((await first.post('/password/forgot', { email: 'reset@example.com' })).status).toBe(202);
    const token = await tokenFromEmail(app, 'reset@example.com', '/reset-password');

    await expectError(await first.post('/password/reset', { token, new_password: 'short' }), 422, 'VALIDATION_ERROR');
    const reset = await first.post('/password/reset', { token, new_password: 'brand new password' });
    expect(reset.status).toBe(200);
    await expectError(await first.post('/password/reset', { token, new_password: 'brand new password' }), 400, 'INVALID_TOKEN');
    await expectError(await first.get('/users/me'), 401, 'UNAUTHORIZED');
    await expectError(await second.get('/users/me'), 401, 'UNAUTHORIZED');
    await expectError(await first.post('/auth/login', { email: 'reset@example.com', password: PASSWORD }), 401, 'INVALID_CREDENTIALS');
    expect((await first.post('/auth/login', { email: 'reset@example.com', password: 'brand new password' })).status).toBe(200);
  });

  it('update keeps the current session and revokes the others; the current password is required', async () => {
    const current = await verifiedUser(app, 'update@example.com');
    const other = new HttpSession(app);
    expect((await other.post('/auth/login', { email: 'update@example.com', password: PASSWORD })).status).toBe(200);

    await expectError(
      await current.post('/password/update', { current_password: 'wrong password', new_password: 'another password' }),
      400,
      'INVALID_CURRENT_PASSWORD',
    );
    const updated = await current.post('/password/update', { current_password: PASSWORD, new_password: 'another password' });
    expect(updated.status).toBe(200);
    expect((await current.get('/users/me')).status).toBe(200);
    await expectError(await other.get('/users/me'), 401, 'UNAUTHORIZED');
  });

  it('login revokes the session cookie it was presented with (no fixation)', async () => {
    const browser = await verifiedUser(app, 'fixation@example.com');
    const before = browser.cookie('session_id')!;
    expect((await browser.post('/auth/login', { email: 'fixation@example.com', password: PASSWORD })).status).toBe(200);
    expect(browser.cookie('session_id')).not.toBe(before);
    const stale = new HttpSession(app);
    stale.setCookie('session_id', before);
    await expectError(await stale.get('/users/me'), 401, 'UNAUTHORIZED');
  });

  it('resend-verification answers 202 whatever the account, and only the newest link works', async () => {
    const browser = new HttpSession(app);
    expect((await browser.post('/auth/signup', { email: 'resend@example.com', password: PASSWORD })).status).toBe(201);
    const first = await tokenFromEmail(app, 'resend@example.com', '/verify-email', 0);
    for (const email of ['resend@example.com', 'nobody@example.com']) {
      const response = await browser.post('/auth/resend-verification', { email });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ success: true });
    }
    const second = await tokenFromEmail(app, 'resend@example.com', '/verify-email', 1);
    await expectError(await browser.post('/auth/verify-email', { token: first }), 400, 'INVALID_TOKEN');
    expect((await browser.post('/auth/verify-email', { token: second })).status).toBe(200);
  });

  it('a suspended organization: sessions answer 401 and a right password gets ACCOUNT_SUSPENDED', async () => {
    const browser = await verifiedUser(app, 'suspend@example.com');
    const me = (await (await browser.get('/users/me')).json()) as { organization_id: number };
    await app.db!.database.run(`update organization set status = 'suspended' where id = $1`, [me.organization_id]);
    await expectError(await browser.get('/users/me'), 401, 'UNAUTHORIZED');
    await expectError(await browser.post('/auth/login', { email: 'suspend@example.com', password: PASSWORD }), 401, 'ACCOUNT_SUSPENDED');
    await expectError(await browser.post('/auth/login', { email: 'suspend@example.com', password: 'wrong password' }), 401, 'INVALID_CREDENTIALS');
  });

  it('an expired session is refused', async () => {
    const browser = await verifiedUser(app, 'expired@example.com');
    await app.db!.database.run(`update session set expires_at = now() - interval '1 second' where user_id = (select id from app_user where email = $1)`, ['expired@example.com']);
    await expectError(await browser.get('/users/me'), 401, 'UNAUTHORIZED');
  });

  it('rate-limits login per client IP: the sixth attempt in 15 minutes gets 429 with Retry-After, another IP does not', async () => {
    const attacker = new HttpSession(app, '203.0.113.66');
    for (let i = 0; i < 5; i += 1) expect((await attacker.post('/auth/login', { email: 'x@example.com', password: 'whatever1' })).status).toBe(401);
    const limited = await attacker.post('/auth/login', { email: 'x@example.com', password: 'whatever1' });
    await expectError(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect((await new HttpSession(app, '203.0.113.67').post('/auth/login', { email: 'x@example.com', password: 'whatever1' })).status).toBe(401);
  });

  it('limits signup and signup-org together at 3 per hour per IP', async () => {
    const client = new HttpSession(app, '203.0.113.70');
    const statuses = [];
    for (let i = 0; i < 2; i += 1) statuses.push((await client.post('/auth/signup', { email: `rl${i}@example.com`, password: PASSWORD })).status);
    statuses.push((await client.post('/auth/signup-org', { email: 'rl2@example.com', password: PASSWORD, organization_name: 'X' })).status);
    statuses.push((await client.post('/auth/signup', { email: 'rl3@example.com', password: PASSWORD })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('limits forgot to 3 per hour and resend-verification to 10 per minute per IP', async () => {
    const client = new HttpSession(app, '203.0.113.71');
    const forgot = [];
    for (let i = 0; i < 4; i += 1) forgot.push((await client.post('/password/forgot', { email: 'a@example.com' })).status);
    expect(forgot).toEqual([202, 202, 202, 429]);
    const resend = [];
    for (let i = 0; i < 11; i += 1) resend.push((await client.post('/auth/resend-verification', { email: 'a@example.com' })).status);
    expect(resend).toEqual([...Array(10).fill(202), 429]);
  });
});

describe('accounts over HTTP (beta/prod cookies, B2B)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      // beta: the same cookies and settings as prod, and it still accepts the stub mailer the test reads.
      APP_ENVIRONMENT: 'beta',
      APP_MODE: 'b2b',
      APP_BASE_WEB_URL: 'https://app.example.com',
      APP_BASE_API_URL: 'https://api.example.com',
      APP_CRON_SECRET: 'c'.repeat(32),
      APP_JWT_SECRET_KEY: 'j'.repeat(32),
      APP_EMAIL_PROVIDER: 'stub',
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
  });
  afterAll(() => app?.close());

  it('closes both signup routes with 404 NOT_FOUND', async () => {
    const browser = new HttpSession(app);
    const prod = { hsts: true };
    await expectError(await browser.post('/auth/signup', { email: 'a@example.com', password: PASSWORD }), 404, 'NOT_FOUND', prod);
    await expectError(await browser.post('/auth/signup-org', { email: 'a@example.com', password: PASSWORD, organization_name: 'A' }), 404, 'NOT_FOUND', prod);
  });

  it('sets Secure; SameSite=Strict session cookies and HSTS', async () => {
    const database = app.db!.database;
    const organizationId = await insertOrganization(database, 'Prod Org');
    const hash = await new BcryptPasswordHasher(4).hash(PASSWORD);
    await database.run(
      `insert into app_user (organization_id, email, password_hash, role, status, email_verified_at, created_at, updated_at)
       values ($1, 'prod@example.com', $2, 'member', 'active', now(), now(), now())`,
      [organizationId, hash],
    );
    const browser = new HttpSession(app);
    const login = await browser.post('/auth/login', { email: 'prod@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
    expect(browser.lastSetCookies[0]).toMatch(/^session_id=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Strict; Secure$/);
    expect(login.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect((await browser.post('/auth/logout')).status).toBe(204);
    expect(browser.lastSetCookies).toEqual(['session_id=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure']);
  });
});
