import { describe, expect, it } from 'vitest';
import { createApiClient, CookieJar, type ApiClient } from '../../app/client/index';
import type { RoleName } from '../../core/access/role';
import { apiSuite, type ApiCaller } from '../support/api-suite';
import { expectApiError } from '../support/http-assertions';
import { tokenFromEmail } from '../support/mailbox';

/** Organization API keys end to end, through the generated client. */
describe('organization API keys over HTTP', () => {
  const suite = apiSuite();
  const { as } = suite;
  const keyed = (key: string): ApiClient => createApiClient(suite.app.url, { apiKey: key });

  async function keyFor(admin: ApiCaller, role: 'readonly' | 'member' | 'org_admin', name = 'CI'): Promise<{ id: number; key: string }> {
    const created = await admin.api.POST('/api-keys', { body: { name, role } });
    expect(created.response.status).toBe(201);
    return { id: created.data!.id, key: created.data!.key };
  }

  it('creates a key shown once, lists it newest first without the key, and authenticates with it', async () => {
    const admin = await as('org_admin');
    const created = await admin.api.POST('/api-keys', { body: { name: '  Deploy bot ', role: 'member' } });

    expect(created.response.status).toBe(201);
    const { key, ...shown } = created.data!;
    expect(key).toMatch(/^tk_[A-Za-z0-9_-]{43}$/);
    expect(shown).toEqual({
      id: expect.any(Number),
      name: 'Deploy bot',
      role: 'member',
      prefix: key.slice(0, 10),
      created_at: expect.any(String),
      created_by: { id: admin.userId, email: expect.any(String) },
      expires_at: null,
      last_used_at: null,
    });
    const second = await keyFor(admin, 'readonly', 'second');
    const page = await admin.api.GET('/api-keys', { params: { query: { limit: 1 } } });
    expect(page.data!.map((item) => item.id)).toEqual([second.id]);
    expect(page.response.headers.get('Link')).toMatch(/rel="next"/);
    expect(JSON.stringify((await admin.api.GET('/api-keys')).data)).not.toContain(key);

    const projects = await keyed(key).GET('/projects');
    expect(projects.response.status).toBe(200);
    const project = await keyed(key).POST('/projects', { body: { name: 'From CI' } });
    expect(project.response.status).toBe(201);
    expect((await admin.api.GET('/projects')).data!.map((item) => item.name)).toEqual(['From CI']);
  });

  it('refuses names with control characters, a role above the caller, and an expiry outside 1 hour..1 year', async () => {
    const admin = await as('org_admin');

    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'a\nb', role: 'member' } }), 422, 'VALIDATION_ERROR');
    expectApiError(await admin.api.POST('/api-keys', { body: { name: '', role: 'member' } }), 422, 'VALIDATION_ERROR');
    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x'.repeat(65), role: 'member' } }), 422, 'VALIDATION_ERROR');
    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x', role: 'sys_admin' as 'org_admin' } }), 422, 'VALIDATION_ERROR');
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    expect(expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x', role: 'member', expires_at: soon } }), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.expires_at']);
    const late = new Date(Date.now() + 367 * 86_400_000).toISOString();
    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x', role: 'member', expires_at: late } }), 422, 'VALIDATION_ERROR');
    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x', role: 'member', expires_at: 'tomorrow' } }), 422, 'VALIDATION_ERROR');
    const fine = new Date(Date.now() + 2 * 3_600_000).toISOString();
    expect((await admin.api.POST('/api-keys', { body: { name: 'x', role: 'member', expires_at: fine } })).data).toMatchObject({ expires_at: fine });
    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x', role: 'member', expires_at: '' } }), 422, 'VALIDATION_ERROR');
    expectApiError(await admin.api.POST('/api-keys', { body: { name: 'x', role: 'member', expires_at: 0 as unknown as string } }), 422, 'VALIDATION_ERROR');

    const member = await as('member', admin.organizationId);
    expectApiError(await member.api.POST('/api-keys', { body: { name: 'x', role: 'readonly' } }), 403, 'ACCESS_DENIED');
    const reader = await as('readonly', admin.organizationId);
    expectApiError(await reader.api.GET('/api-keys'), 403, 'ACCESS_DENIED');
  });

  it('takes expires_at: null as never, as the ApiKey it answers shows it, so a client can send a key back as it read it', async () => {
    const admin = await as('org_admin');
    const created = await admin.api.POST('/api-keys', { body: { name: 'Round trip', role: 'member', expires_at: null } });

    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'Round trip', expires_at: null });
    expect((await keyed(created.data!.key).GET('/projects')).response.status).toBe(200);
  });

  it("answers 403 to a key on routes about one's own user, key management and sys_admin routes", async () => {
    const admin = await as('org_admin');
    const api = keyed((await keyFor(admin, 'org_admin')).key);

    for (const result of [
      await api.GET('/users/me'),
      await api.PUT('/users/me', { body: { first_name: 'Bot' } }),
      await api.POST('/password/update', { body: { current_password: 'whatever1', new_password: 'whatever2' } }),
      await api.GET('/sessions'),
      await api.POST('/auth/mfa/totp/setup'),
      await api.GET('/passkeys'),
      await api.GET('/notes'),
      await api.POST('/auth/logout'),
      await api.GET('/api-keys'),
      await api.POST('/api-keys', { body: { name: 'child', role: 'readonly' } }),
      await api.GET('/organizations'),
      await api.GET('/settings/system'),
    ]) {
      expect(expectApiError(result, 403, 'ACCESS_DENIED')).toMatchObject({ reason: 'api_key_not_accepted' });
    }
    expect((await api.GET('/members')).response.status).toBe(200);
  });

  it('invites with a key up to its role; the invitee joins with that role, until the key is revoked', async () => {
    const admin = await as('org_admin');
    const key = await keyFor(admin, 'org_admin');
    const api = keyed(key.key);
    const email = `by-key-${Date.now()}@example.test`;

    const created = await api.POST('/invitations', { body: { email, role: 'org_admin' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: expect.any(Number), email, role: 'org_admin', organization_id: admin.organizationId, expires_at: expect.any(String), created_at: expect.any(String) });
    expect(created.response.headers.get('Location')).toBe(`/invitations/${created.data!.id}`);
    const accepted = await createApiClient(suite.app.url, new CookieJar()).POST('/invitations/accept', {
      body: { token: await tokenFromEmail(suite.app, email, '/invite/accept'), password: 'password-123' },
    });
    expect(accepted.response.status).toBe(201);
    const joined = (await admin.api.GET('/members')).data!.find((member) => member.user_id === accepted.data!.user_id);
    expect(joined).toMatchObject({ email, role: { name: 'org_admin' } });
    const events = (await admin.api.GET('/audit-events', { params: { query: { action: 'invitation.created' } } })).data!;
    expect(events[0]).toMatchObject({ actor: { type: 'api_key', id: key.id }, target: { type: 'invitation', id: String(created.data!.id) } });

    // Revoking the key voids what it sent that is still pending: not listed, not acceptable.
    const later = `later-${email}`;
    expect((await api.POST('/invitations', { body: { email: later, role: 'member' } })).response.status).toBe(201);
    const token = await tokenFromEmail(suite.app, later, '/invite/accept');
    expect((await admin.api.GET('/invitations')).data!.map((invitation) => invitation.email)).toEqual([later]);
    expect((await admin.api.DELETE('/api-keys/{api_key_id}', { params: { path: { api_key_id: key.id } } })).response.status).toBe(204);
    expect((await admin.api.GET('/invitations')).data).toEqual([]);
    expectApiError(await createApiClient(suite.app.url, new CookieJar()).POST('/invitations/accept', { body: { token, password: 'password-123' } }), 400, 'INVALID_TOKEN');
  });

  it('refuses an invitation to a readonly key and one above a member key, as to such members', async () => {
    const admin = await as('org_admin');
    const reader = keyed((await keyFor(admin, 'readonly')).key);
    const member = keyed((await keyFor(admin, 'member', 'member')).key);
    const readonlyUser = await as('readonly', admin.organizationId);

    expectApiError(await readonlyUser.api.POST('/invitations', { body: { email: 'no@example.test', role: 'readonly' } }), 403, 'ACCESS_DENIED');
    expectApiError(await reader.POST('/invitations', { body: { email: 'no@example.test', role: 'readonly' } }), 403, 'ACCESS_DENIED');
    expectApiError(await member.POST('/invitations', { body: { email: 'no@example.test', role: 'org_admin' } }), 403, 'ACCESS_DENIED');
    expect((await admin.api.GET('/invitations')).data).toEqual([]);
  });

  it('refuses unknown, revoked and expired keys and keys of a suspended organization with 401; revocation takes effect on the next request', async () => {
    const admin = await as('org_admin');
    const { id, key } = await keyFor(admin, 'readonly');
    const api = keyed(key);
    expect((await api.GET('/projects')).response.status).toBe(200);

    expectApiError(await keyed(`tk_${'A'.repeat(43)}`).GET('/projects'), 401, 'UNAUTHORIZED');
    expectApiError(await keyed('not-a-key').GET('/projects'), 401, 'UNAUTHORIZED');
    const other = await as('org_admin');
    const elsewhere = await other.api.DELETE('/api-keys/{api_key_id}', { params: { path: { api_key_id: id } } });
    expect(expectApiError(elsewhere, 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'api_key', resource_id: id });
    expect(elsewhere.error).toMatchObject({ message: 'API key not found' });
    expect((await admin.api.DELETE('/api-keys/{api_key_id}', { params: { path: { api_key_id: id } } })).response.status).toBe(204);
    expectApiError(await api.GET('/projects'), 401, 'UNAUTHORIZED');

    const dated = await keyFor(admin, 'readonly', 'dated');
    await suite.app.db!.database.run('update api_key set expires_at = $1 where id = $2', [new Date(Date.now() - 1000), dated.id]);
    expectApiError(await keyed(dated.key).GET('/projects'), 401, 'UNAUTHORIZED');

    const live = await keyFor(admin, 'readonly', 'live');
    await suite.app.db!.database.run("update organization set status = 'suspended' where id = $1", [admin.organizationId]);
    expectApiError(await keyed(live.key).GET('/projects'), 401, 'UNAUTHORIZED');
  });

  it('refuses the session cookie and a key together (400), but not a key beside other cookies', async () => {
    const admin = await as('org_admin');
    const { key } = await keyFor(admin, 'readonly');

    const both = new CookieJar();
    both.set(suite.app.config.sessionCookieName, admin.token);
    const mixed = createApiClient(suite.app.url, { cookieJar: both, headers: { Authorization: `Bearer ${key}` } });
    expect(expectApiError(await mixed.GET('/projects'), 400, 'MALFORMED_REQUEST')).toMatchObject({ reason: 'session_and_api_key' });

    const unrelated = new CookieJar();
    unrelated.set('theme', 'dark');
    const withOther = createApiClient(suite.app.url, { cookieJar: unrelated, headers: { Authorization: `Bearer ${key}` } });
    expect((await withOther.GET('/projects')).response.status).toBe(200);
  });

  it('skips the cross-site check for a bearer key (no cookie is involved), not for a session', async () => {
    const admin = await as('org_admin');
    const { key } = await keyFor(admin, 'member');
    const evil = { Origin: 'https://evil.example' };

    const byKey = createApiClient(suite.app.url, { apiKey: key, headers: evil });
    expect((await byKey.POST('/projects', { body: { name: 'ok' } })).response.status).toBe(201);
    const jar = new CookieJar();
    jar.set(suite.app.config.sessionCookieName, admin.token);
    const bySession = createApiClient(suite.app.url, { cookieJar: jar, headers: evil });
    expectApiError(await bySession.POST('/projects', { body: { name: 'no' } }), 403, 'ACCESS_DENIED');
  });

  it("acts with the key's role only, whoever made it, and outlives its creator's demotion and removal", async () => {
    const admin = await as('org_admin');
    const reader = keyed((await keyFor(admin, 'readonly')).key);
    const writer = await keyFor(admin, 'org_admin', 'writer');

    expectApiError(await reader.POST('/projects', { body: { name: 'x' } }), 403, 'ACCESS_DENIED');
    expectApiError(await reader.GET('/members'), 403, 'ACCESS_DENIED');

    const successor = await as('org_admin', admin.organizationId);
    expect((await successor.api.PUT('/members/{user_id}', { params: { path: { user_id: admin.userId } }, body: { role: 'readonly' } })).response.status).toBe(200);
    expect((await keyed(writer.key).GET('/members')).response.status).toBe(200);
    // A key is nobody's user, so no "not yourself" rule stops it: it removes the member who made it.
    expect((await keyed(writer.key).DELETE('/members/{user_id}', { params: { path: { user_id: admin.userId } } })).response.status).toBe(204);
    expect((await keyed(writer.key).GET('/members')).response.status).toBe(200);
    const listed = await successor.api.GET('/api-keys');
    expect(listed.data!.find((item) => item.id === writer.id)).toMatchObject({ created_by: null });
  });

  it('records last_used_at once the key is used', async () => {
    const admin = await as('org_admin');
    const { id, key } = await keyFor(admin, 'readonly');
    const before = Date.now();
    await keyed(key).GET('/projects');
    await expect
      .poll(async () => (await admin.api.GET('/api-keys')).data!.find((item) => item.id === id)!.last_used_at, { timeout: 5000 })
      .not.toBeNull();
    const used = (await admin.api.GET('/api-keys')).data!.find((item) => item.id === id)!.last_used_at!;
    expect(new Date(used).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // The access log names the key (there is no user).
    expect(suite.app.logs().find((line) => line.msg === 'request' && line.api_key_id === id)).toMatchObject({ path: '/projects', user_id: null });
  });

  it("records the key's creation and revocation in the audit log, never the key, and names the key as the actor of what it changes", async () => {
    const admin = await as('org_admin');
    const member = await as('member', admin.organizationId);
    const { id, key } = await keyFor(admin, 'org_admin');
    expect((await keyed(key).PUT('/members/{user_id}', { params: { path: { user_id: member.userId } }, body: { role: 'readonly' } })).response.status).toBe(200);
    expect((await admin.api.DELETE('/api-keys/{api_key_id}', { params: { path: { api_key_id: id } } })).response.status).toBe(204);

    const events = (await admin.api.GET('/audit-events')).data!;
    const created = events.find((event) => event.action === 'api_key.created')!;
    expect(created).toMatchObject({ actor: { type: 'user', id: admin.userId }, target: { type: 'api_key', id: String(id) }, details: { name: 'CI', role: 'org_admin' } });
    expect(events.find((event) => event.action === 'api_key.revoked')).toMatchObject({ target: { type: 'api_key', id: String(id) } });
    // As docs/audit-log.md says: the key by its id alone; its name is in api_key.created's details.
    expect(events.find((event) => event.action === 'member.role_changed')!.actor).toEqual({ type: 'api_key', id });
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it('describes the bearer scheme beside the cookie, only on operations that take keys', async () => {
    const document = (await (await suite.app.request('/openapi.json')).json()) as {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<string, Record<string, { security: Array<Record<string, unknown>> }>>;
    };
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const schemes = (path: string, method: string) => document.paths[path]![method]!.security.flatMap((entry) => Object.keys(entry));
    expect(schemes('/projects', 'get')).toEqual(['sessionCookie', 'apiKey']);
    expect(schemes('/users/me', 'get')).toEqual(['sessionCookie']);
    expect(schemes('/api-keys', 'post')).toEqual(['sessionCookie']);
    expect(schemes('/organizations', 'get')).toEqual(['sessionCookie']);
    expect(schemes('/auth/login', 'post')).toEqual([]);
  });
});

describe('the per-key rate limit', () => {
  const suite = apiSuite(() => ({ APP_API_KEY_RATE_LIMIT: '3' }));

  it('answers 429 RATE_LIMITED with Retry-After once a key has spent its minute, counting each key on its own', async () => {
    const admin = await suite.as('org_admin');
    const keyOf = async (role: RoleName) => (await admin.api.POST('/api-keys', { body: { name: 'k', role: role as 'member' } })).data!.key;
    const first = createApiClient(suite.app.url, { apiKey: await keyOf('member') });
    const second = createApiClient(suite.app.url, { apiKey: await keyOf('member') });

    for (let i = 0; i < 3; i += 1) expect((await first.GET('/projects')).response.status).toBe(200);
    const limited = await first.GET('/projects');
    expectApiError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.response.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await second.GET('/projects')).response.status).toBe(200);
    // The session is not counted against any key.
    expect((await admin.api.GET('/projects')).response.status).toBe(200);
  });
});
