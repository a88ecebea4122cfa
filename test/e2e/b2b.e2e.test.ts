import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { HttpSession } from '../support/http-session';
import { tokenFromEmail } from '../support/mailbox';

const ROOT = resolve(import.meta.dirname, '../..');
const PASSWORD = 'correct horse battery';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** `npm run cli -- <args>` as a real process against the app's database. */
function runCli(app: TestApp, args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('APP_')));
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['app/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...inherited, APP_DATABASE_URL: app.config.databaseUrl ?? '', APP_PASSWORD_HASH_COST: '4', APP_MODE: app.config.mode },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

async function expectError(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { code: string; details: Record<string, unknown> };
  expect(body).toMatchObject({ code, message: expect.any(String), error_id: expect.any(String), details: expect.any(Object) });
  return body.details;
}

async function loggedIn(app: TestApp, email: string, password = PASSWORD): Promise<HttpSession> {
  const browser = new HttpSession(app);
  expect((await browser.post('/auth/login', { email, password })).status).toBe(200);
  return browser;
}

/** Invites `email` as `role` through `admin`, accepts the emailed link, and logs the new member in. */
async function joinThroughInvitation(app: TestApp, admin: HttpSession, email: string, role: string): Promise<{ browser: HttpSession; userId: number }> {
  const invited = await admin.post('/invitations', { email, role });
  expect(invited.status).toBe(201);
  const token = await tokenFromEmail(app, email, '/invite/accept');
  const accepted = await new HttpSession(app).post('/invitations/accept', { token, password: PASSWORD });
  expect(accepted.status).toBe(201);
  const { user_id } = (await accepted.json()) as { user_id: number };
  return { browser: await loggedIn(app, email), userId: user_id };
}

describe('the B2B story over HTTP (APP_MODE=b2b)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_MODE: 'b2b' });
  });
  afterAll(() => app?.close());

  it('create-sys-admin makes a verified sys_admin, is idempotent per address and names a weak password', { timeout: 120_000 }, async () => {
    const created = await runCli(app, ['create-sys-admin', '--email', 'Root@Example.com', '--password', PASSWORD]);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining('created sys_admin root@example.com') });

    const again = await runCli(app, ['create-sys-admin', '--email', 'root@example.com', '--password', 'something-else']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/root@example\.com.*(already|exists)/);

    const me = await (await loggedIn(app, 'root@example.com')).get('/users/me');
    expect(await me.json()).toMatchObject({ email_verified: true, organization_name: 'System', role: { name: 'sys_admin', precedence: 3 } });

    const weak = await runCli(app, ['create-sys-admin', '--email', 'weak@example.com', '--password', 'short']);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('8 to 64');
  });

  it('sys_admin → organization → invited org_admin → team → roles → suspension → activation', { timeout: 120_000 }, async () => {
    const root = await loggedIn(app, 'root@example.com');
    await expectError(await new HttpSession(app).post('/auth/signup', { email: 'x@example.com', password: PASSWORD }), 404, 'NOT_FOUND');

    const created = await root.post('/organizations', { name: '  Acme  ', admin_email: 'Boss@Acme.test' });
    expect(created.status).toBe(201);
    const acme = (await created.json()) as { id: number };
    expect(acme).toEqual({ id: expect.any(Number), name: 'Acme', status: 'active', created_at: expect.stringMatching(ISO) });
    const listed = (await (await root.get('/organizations')).json()) as Array<{ id: number; name: string }>;
    expect(listed.map((o) => o.name)).toEqual(['System', 'Acme']);

    const token = await tokenFromEmail(app, 'boss@acme.test', '/invite/accept');
    const accept = await new HttpSession(app).post('/invitations/accept', { token, password: PASSWORD, first_name: 'Bo' });
    expect(accept.status).toBe(201);
    await expectError(await new HttpSession(app).post('/invitations/accept', { token, password: PASSWORD }), 400, 'INVALID_TOKEN');

    const boss = await loggedIn(app, 'boss@acme.test');
    const bossMe = (await (await boss.get('/users/me')).json()) as { id: number };
    expect(bossMe).toMatchObject({ organization_id: acme.id, organization_name: 'Acme', first_name: 'Bo', role: { name: 'org_admin' } });
    await expectError(await boss.get('/organizations'), 403, 'ACCESS_DENIED');
    await expectError(await boss.post('/invitations', { email: 'x@acme.test', role: 'sys_admin' }), 403, 'ACCESS_DENIED');
    await expectError(await boss.post('/invitations', { email: 'root@example.com', role: 'member' }), 409, 'EMAIL_ALREADY_EXISTS');

    const reader = await joinThroughInvitation(app, boss, 'reader@acme.test', 'readonly');
    const member = await joinThroughInvitation(app, boss, 'member@acme.test', 'member');
    expect((await reader.browser.get('/projects')).status).toBe(200);
    await expectError(await reader.browser.post('/projects', { name: 'Nope' }), 403, 'ACCESS_DENIED');
    await expectError(await reader.browser.get('/members'), 403, 'ACCESS_DENIED');
    expect((await member.browser.post('/projects', { name: 'Roadmap' })).status).toBe(201);

    const members = (await (await boss.get('/members')).json()) as Array<Record<string, unknown>>;
    expect(members.map((m) => [m.email, (m.role as { name: string }).name])).toEqual([
      ['boss@acme.test', 'org_admin'],
      ['reader@acme.test', 'readonly'],
      ['member@acme.test', 'member'],
    ]);
    expect(Object.keys(members[0]!).sort()).toEqual(['created_at', 'email', 'first_name', 'last_name', 'role', 'status', 'user_id']);

    const promoted = await boss.send('PUT', `/members/${reader.userId}`, { role: 'member' });
    expect(await promoted.json()).toMatchObject({ user_id: reader.userId, role: { name: 'member', precedence: 1 } });
    expect((await reader.browser.post('/projects', { name: 'Now allowed' })).status).toBe(201);
    await expectError(await boss.send('PUT', `/members/${bossMe.id}`, { role: 'member' }), 409, 'LAST_ORG_ADMIN');
    await expectError(await boss.send('DELETE', `/members/${bossMe.id}`), 403, 'ACCESS_DENIED');
    await expectError(await boss.send('PUT', `/members/${reader.userId}`, { role: 'sys_admin' }), 403, 'ACCESS_DENIED');
    const rootId = ((await (await root.get('/users/me')).json()) as { id: number }).id;
    expect(await expectError(await boss.send('PUT', `/members/${rootId}`, { role: 'member' }), 404, 'RESOURCE_NOT_FOUND')).toEqual({
      resource: 'member',
      resource_id: rootId,
    });
    for (const bad of ['abc', '0', '-1', '2147483648', '1.5']) {
      await expectError(await boss.send('PUT', `/members/${bad}`, { role: 'member' }), 422, 'VALIDATION_ERROR');
    }

    // Suspension: existing sessions 401, logins ACCOUNT_SUSPENDED, nothing deleted; activation undoes it.
    const suspended = await root.post(`/organizations/${acme.id}/suspend`);
    expect(await suspended.json()).toMatchObject({ id: acme.id, status: 'suspended' });
    await expectError(await boss.get('/users/me'), 401, 'UNAUTHORIZED');
    await expectError(await member.browser.get('/projects'), 401, 'UNAUTHORIZED');
    await expectError(await new HttpSession(app).post('/auth/login', { email: 'member@acme.test', password: PASSWORD }), 401, 'ACCOUNT_SUSPENDED');
    expect((await root.get('/users/me')).status).toBe(200);
    await expectError(await root.post('/organizations/999999/suspend'), 404, 'RESOURCE_NOT_FOUND');

    expect(await (await root.post(`/organizations/${acme.id}/activate`)).json()).toMatchObject({ status: 'active' });
    expect((await boss.get('/users/me')).status).toBe(200);
    expect(((await (await member.browser.get('/projects')).json()) as unknown[]).length).toBe(2);
    await loggedIn(app, 'member@acme.test');

    // Removal: the user, their sessions and their projects go at once.
    expect((await boss.send('DELETE', `/members/${member.userId}`)).status).toBe(204);
    await expectError(await member.browser.get('/projects'), 401, 'UNAUTHORIZED');
    const left = (await (await boss.get('/projects')).json()) as Array<{ name: string }>;
    expect(left.map((p) => p.name)).toEqual(['Now allowed']);
    await expectError(await boss.send('DELETE', `/members/${member.userId}`), 404, 'RESOURCE_NOT_FOUND');
  });

  it('lists, replaces and revokes pending invitations, never showing a token', { timeout: 60_000 }, async () => {
    const boss = await loggedIn(app, 'boss@acme.test');
    const first = (await (await boss.post('/invitations', { email: 'later@acme.test', role: 'member' })).json()) as { id: number };
    const second = await boss.post('/invitations', { email: 'later@acme.test', role: 'readonly' });
    const invitation = (await second.json()) as Record<string, unknown>;
    expect(Object.keys(invitation).sort()).toEqual(['created_at', 'email', 'expires_at', 'id', 'organization_id', 'role']);
    expect(Date.parse(String(invitation.expires_at)) - Date.parse(String(invitation.created_at))).toBe(7 * 86_400_000);

    const pending = (await (await boss.get('/invitations')).json()) as Array<{ id: number }>;
    expect(pending.map((i) => i.id)).toEqual([invitation.id]);
    expect(pending.map((i) => i.id)).not.toContain(first.id);

    const token = await tokenFromEmail(app, 'later@acme.test', '/invite/accept', 1);
    expect((await boss.send('DELETE', `/invitations/${String(invitation.id)}`)).status).toBe(204);
    await expectError(await boss.send('DELETE', `/invitations/${String(invitation.id)}`), 404, 'RESOURCE_NOT_FOUND');
    await expectError(await new HttpSession(app).post('/invitations/accept', { token, password: PASSWORD }), 400, 'INVALID_TOKEN');
    expect(await (await boss.get('/invitations')).json()).toEqual([]);
    await expectError(await new HttpSession(app).post('/invitations/accept', { token, password: 'short' }), 422, 'VALIDATION_ERROR');
  });

  it('describes every route with its tag and operationId', async () => {
    const spec = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };
    const operations = Object.values(spec.paths).flatMap((item) => Object.values(item).map((op) => `${op.tags[0]}:${op.operationId}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'Organizations:createOrganization',
        'Organizations:listOrganizations',
        'Organizations:suspendOrganization',
        'Organizations:activateOrganization',
        'Members:listMembers',
        'Members:updateMemberRole',
        'Members:removeMember',
        'Invitations:createInvitation',
        'Invitations:listInvitations',
        'Invitations:revokeInvitation',
        'Invitations:acceptInvitation',
      ]),
    );
  });

  it('create-sys-admin reads the password from stdin when --password is left out, so it stays out of ps and shell history', { timeout: 120_000 }, async () => {
    const piped = await runCli(app, ['create-sys-admin', '--email', 'piped@example.com'], `${PASSWORD}\nignored second line\n`);
    expect(piped).toMatchObject({ code: 0, stdout: expect.stringContaining('created sys_admin piped@example.com') });
    expect((await loggedIn(app, 'piped@example.com')).cookie('session_id')).toBeTruthy();
  });
});

describe('invitations in B2C mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('signup → verify → login → invite a member → accept → the member is in the same organization', { timeout: 120_000 }, async () => {
    const owner = new HttpSession(app);
    expect((await owner.post('/auth/signup-org', { email: 'owner@shop.test', password: PASSWORD, organization_name: 'Shop' })).status).toBe(201);
    expect((await owner.post('/auth/verify-email', { token: await tokenFromEmail(app, 'owner@shop.test', '/verify-email') })).status).toBe(200);
    expect((await owner.post('/auth/login', { email: 'owner@shop.test', password: PASSWORD })).status).toBe(200);

    const { browser } = await joinThroughInvitation(app, owner, 'helper@shop.test', 'member');

    const me = await (await browser.get('/users/me')).json();
    expect(me).toMatchObject({ organization_name: 'Shop', email_verified: true, role: { name: 'member' } });
    await expectError(await browser.get('/members'), 403, 'ACCESS_DENIED');
    expect(((await (await owner.get('/members')).json()) as unknown[]).length).toBe(2);
    await expectError(await owner.get('/organizations'), 403, 'ACCESS_DENIED');

    const refused = await runCli(app, ['create-sys-admin', '--email', 'owner@shop.test', '--password', PASSWORD]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('owner@shop.test already has an account with the org_admin role');
    expect(await (await owner.get('/users/me')).json()).toMatchObject({ role: { name: 'org_admin' } });
  });
});
