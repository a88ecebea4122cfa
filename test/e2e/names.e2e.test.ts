import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { expectErrorResponse } from '../support/http-assertions';
import { testSessions } from '../support/sessions';

/** A registration response of the right shape: only the name is wrong in these requests. */
const REGISTRATION = { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'x', attestationObject: 'x' }, clientExtensionResults: {} };

/** Control characters a name must not carry: line breaks, a tab, an escape, DEL. */
const CONTROLS = ['Acme\n\nAccept here: https://evil.example/', 'Acme\r', '\tAcme', 'Ac\u001bme', 'Acme\u007f'];

/**
 * Every name and title field refuses control characters with 422 naming the field, so no name can
 * pose as a line of its own in a list or an email.
 */
describe('names refuse control characters, route by route', () => {
  let app: TestApp;
  let member: string;
  let admin: string;
  let sysAdmin: string;
  let client = 0;

  beforeAll(async () => {
    app = await startTestApp();
    const sessions = testSessions(app.db!.database);
    member = (await sessions.loginAs('member', await sessions.newOrganization())).token;
    admin = (await sessions.loginAs('org_admin', await sessions.newOrganization())).token;
    sysAdmin = (await sessions.loginAs('sys_admin', await sessions.newOrganization('System'))).token;
  });
  afterAll(() => app?.close());

  const send = (method: string, path: string, body: Record<string, unknown>, token?: string) =>
    app.request(path, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `192.0.2.${(client += 1) % 250}`,
        ...(token ? { Cookie: `${app.config.sessionCookieName}=${token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  const signup = { email: 'names@example.com', password: 'password123' };
  const cases: { route: string; method: string; path: string; field: string; body: (name: string) => Record<string, unknown>; as?: () => string }[] = [
    { route: 'signup', method: 'POST', path: '/auth/signup', field: 'first_name', body: (name) => ({ ...signup, first_name: name }) },
    { route: 'signup', method: 'POST', path: '/auth/signup', field: 'last_name', body: (name) => ({ ...signup, last_name: name }) },
    { route: 'signup-org', method: 'POST', path: '/auth/signup-org', field: 'organization_name', body: (name) => ({ ...signup, organization_name: name }) },
    { route: 'signup-org', method: 'POST', path: '/auth/signup-org', field: 'first_name', body: (name) => ({ ...signup, organization_name: 'Acme', first_name: name }) },
    { route: 'invitation accept', method: 'POST', path: '/invitations/accept', field: 'last_name', body: (name) => ({ token: 'x', password: 'password123', last_name: name }) },
    { route: 'create organization', method: 'POST', path: '/organizations', field: 'name', body: (name) => ({ name, admin_email: 'boss@example.com' }), as: () => sysAdmin },
    { route: 'create project', method: 'POST', path: '/projects', field: 'name', body: (name) => ({ name }), as: () => member },
    { route: 'update project', method: 'PUT', path: '/projects/1', field: 'name', body: (name) => ({ name }), as: () => member },
    { route: 'create note', method: 'POST', path: '/notes', field: 'title', body: (name) => ({ title: name, content: 'fine' }), as: () => member },
    { route: 'update note', method: 'PUT', path: '/notes/1', field: 'title', body: (name) => ({ title: name }), as: () => member },
    { route: 'create plan', method: 'POST', path: '/plans', field: 'name', body: (name) => ({ name }), as: () => sysAdmin },
    { route: 'update plan', method: 'PUT', path: '/plans/1', field: 'name', body: (name) => ({ name }), as: () => sysAdmin },
    { route: 'invitation accept', method: 'POST', path: '/invitations/accept', field: 'first_name', body: (name) => ({ token: 'x', password: 'password123', first_name: name }) },
    { route: 'update profile', method: 'PUT', path: '/users/me', field: 'first_name', body: (name) => ({ first_name: name }), as: () => member },
    { route: 'update profile', method: 'PUT', path: '/users/me', field: 'last_name', body: (name) => ({ last_name: name }), as: () => member },
    { route: 'register passkey', method: 'POST', path: '/auth/passkeys/register', field: 'name', body: (name) => ({ response: REGISTRATION, name }), as: () => member },
    { route: 'rename passkey', method: 'PATCH', path: '/passkeys/1', field: 'name', body: (name) => ({ name }), as: () => member },
    { route: 'create API key', method: 'POST', path: '/api-keys', field: 'name', body: (name) => ({ name, role: 'readonly' }), as: () => admin },
  ];

  it.each(cases)('$method $path refuses a control character in $field', async ({ method, path, field, body, as }) => {
    for (const name of CONTROLS) {
      const refused = await expectErrorResponse(await send(method, path, body(name), as?.()), 422, 'VALIDATION_ERROR');
      expect(refused.details).toEqual({ [`body.${field}`]: expect.stringContaining('control characters') });
    }
  });

  it('still takes names with spaces, accents and emoji, and note content with line breaks and tabs', async () => {
    const project = await send('POST', '/projects', { name: 'Café  Ωmega 😀' }, member);
    expect(project.status).toBe(201);
    const note = await send('POST', '/notes', { title: 'Plan', content: 'one\n\ttwo\r\nthree' }, member);
    expect(note.status).toBe(201);
    expect(((await note.json()) as { content: string }).content).toBe('one\n\ttwo\r\nthree');
  });
});
