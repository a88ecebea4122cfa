import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';

/**
 * The served OpenAPI description names each route of passkeys, email links, API keys and the
 * audit log (and the account, billing and MFA routes whose rules changed with them) by the
 * operationId, tag, parameters and answers a client generated from it relies on: the route's
 * success status and body, and every error code the route is documented to answer, under the
 * status it is answered with.
 */
interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const listOf = (name: string) => ({ type: 'array', items: ref(name) });

const LIST = ['limit', 'cursor'];
const AUDIT_FILTERS = ['action', 'actor_id', 'since', 'until', ...LIST];

const OPERATIONS: Array<{
  method: string;
  path: string;
  operationId: string;
  tag: string;
  params?: string[];
  success: [status: number, schema?: Record<string, unknown>];
  errors?: Record<number, string[]>;
}> = [
  { method: 'post', path: '/auth/passkeys/register/options', operationId: 'passkeyRegistrationOptions', tag: 'Passkeys', success: [200] },
  {
    method: 'post',
    path: '/auth/passkeys/register',
    operationId: 'registerPasskey',
    tag: 'Passkeys',
    success: [201, ref('Passkey')],
    errors: { 400: ['VALIDATION_ERROR'], 422: ['VALIDATION_ERROR'] },
  },
  { method: 'get', path: '/passkeys', operationId: 'listPasskeys', tag: 'Passkeys', success: [200, listOf('Passkey')] },
  { method: 'patch', path: '/passkeys/{passkey_id}', operationId: 'renamePasskey', tag: 'Passkeys', params: ['passkey_id'], success: [200, ref('Passkey')], errors: { 404: ['RESOURCE_NOT_FOUND'] } },
  { method: 'delete', path: '/passkeys/{passkey_id}', operationId: 'deletePasskey', tag: 'Passkeys', params: ['passkey_id'], success: [204], errors: { 404: ['RESOURCE_NOT_FOUND'] } },
  { method: 'post', path: '/auth/passkeys/login/options', operationId: 'passkeyLoginOptions', tag: 'Passkeys', success: [200] },
  {
    method: 'post',
    path: '/auth/passkeys/login',
    operationId: 'loginWithPasskey',
    tag: 'Passkeys',
    success: [200, ref('UserId')],
    errors: { 401: ['INVALID_CREDENTIALS', 'ACCOUNT_SUSPENDED'], 429: ['RATE_LIMITED'] },
  },
  {
    method: 'post',
    path: '/auth/email-link',
    operationId: 'requestEmailLink',
    tag: 'Authentication',
    success: [202, ref('Success')],
    errors: { 404: ['NOT_FOUND'], 422: ['VALIDATION_ERROR'], 429: ['RATE_LIMITED'] },
  },
  {
    method: 'post',
    path: '/auth/email-link/verify',
    operationId: 'verifyEmailLink',
    tag: 'Authentication',
    success: [200],
    errors: { 400: ['INVALID_TOKEN'], 401: ['ACCOUNT_SUSPENDED'], 404: ['NOT_FOUND'] },
  },
  { method: 'post', path: '/api-keys', operationId: 'createApiKey', tag: 'ApiKeys', success: [201, ref('CreatedApiKey')], errors: { 403: ['ACCESS_DENIED'], 422: ['VALIDATION_ERROR'] } },
  { method: 'get', path: '/api-keys', operationId: 'listApiKeys', tag: 'ApiKeys', params: LIST, success: [200, listOf('ApiKey')], errors: { 403: ['ACCESS_DENIED'] } },
  { method: 'delete', path: '/api-keys/{api_key_id}', operationId: 'revokeApiKey', tag: 'ApiKeys', params: ['api_key_id'], success: [204], errors: { 404: ['RESOURCE_NOT_FOUND'] } },
  { method: 'get', path: '/audit-events', operationId: 'listAuditEvents', tag: 'Audit', params: AUDIT_FILTERS, success: [200, listOf('AuditEvent')], errors: { 422: ['VALIDATION_ERROR'] } },
  { method: 'get', path: '/audit-events/export', operationId: 'exportAuditEvents', tag: 'Audit', params: ['since', 'until'], success: [200], errors: { 422: ['VALIDATION_ERROR'], 429: ['RATE_LIMITED'] } },
  {
    method: 'get',
    path: '/organizations/{organization_id}/audit-events',
    operationId: 'listOrganizationAuditEvents',
    tag: 'Audit',
    params: ['organization_id', ...AUDIT_FILTERS],
    success: [200, listOf('AuditEvent')],
    errors: { 404: ['RESOURCE_NOT_FOUND'] },
  },
  { method: 'put', path: '/users/me', operationId: 'updateCurrentUser', tag: 'Users', success: [200, ref('User')], errors: { 422: ['VALIDATION_ERROR'] } },
  {
    method: 'post',
    path: '/subscription/checkout',
    operationId: 'createCheckoutSession',
    tag: 'Billing',
    success: [200, ref('CheckoutSession')],
    errors: { 409: ['CONFLICT'], 422: ['VALIDATION_ERROR'] },
  },
  { method: 'post', path: '/subscription/portal', operationId: 'createPortalSession', tag: 'Billing', success: [200] },
  { method: 'put', path: '/settings/organization', operationId: 'updateOrganizationSettings', tag: 'Settings', success: [200], errors: { 409: ['CONFLICT'] } },
  { method: 'post', path: '/auth/mfa/verify', operationId: 'verifyMfa', tag: 'MFA', success: [200], errors: { 401: ['INVALID_MFA_CODE', 'UNAUTHORIZED'], 429: ['RATE_LIMITED'] } },
];

describe('the OpenAPI description of the passkey, email-link, API-key and audit routes', () => {
  let app: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  let schemas: Record<string, unknown>;
  beforeAll(async () => {
    app = await startTestApp();
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: typeof paths; components: { schemas: typeof schemas } };
    paths = doc.paths;
    schemas = doc.components.schemas;
  });
  afterAll(() => app?.close());

  it.each(OPERATIONS)('$operationId is $method $path, with its tag, parameters and answers', ({ method, path, operationId, tag, params, success, errors }) => {
    const operation = paths[path]?.[method];
    expect(operation, `${method} ${path}`).toBeDefined();
    expect(operation!.operationId).toBe(operationId);
    expect(operation!.tags).toEqual([tag]);
    expect((operation!.parameters ?? []).map((p) => p.name).sort()).toEqual(expect.arrayContaining([...(params ?? [])].sort()));
    for (const name of params ?? []) {
      const param = operation!.parameters!.find((p) => p.name === name)!;
      expect(param.in).toBe(name.endsWith('_id') && path.includes(`{${name}}`) ? 'path' : 'query');
    }
    const [status, schema] = success;
    expect(operation!.responses[String(status)], `${operationId} ${status}`).toBeDefined();
    if (schema) expect(operation!.responses[String(status)]!.content?.['application/json']?.schema).toEqual(schema);
    for (const [errorStatus, codes] of Object.entries(errors ?? {})) {
      const description = operation!.responses[errorStatus]?.description ?? '';
      for (const code of codes) expect(description.split(', '), `${operationId} ${errorStatus}`).toContain(code);
    }
  });

  it('names the Passkey shape as the contract does, with every field', () => {
    expect(schemas.Passkey).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'name', 'created_at', 'last_used_at', 'backed_up', 'device_type', 'transports']),
    });
  });

  it('describes the export as NDJSON', () => {
    expect(Object.keys(paths['/audit-events/export']!.get!.responses['200']!.content!)).toEqual(['application/x-ndjson']);
  });
});
