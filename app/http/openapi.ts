import { isDeepStrictEqual } from 'node:util';
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { answeredAs, STATUS_BY_CODE, type ApiErrorCode } from './error-mapping';
import type { AnyRoute, ResponseSpec } from './route';
import { REQUEST_COMPONENTS, RESPONSE_COMPONENTS } from './schemas/components';

export interface OpenApiInfo {
  title: string;
  version: string;
  sessionCookieName: string;
}

type Json = Record<string, unknown>;
type Mode = 'input' | 'output';

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };

/**
 * Every tag, described, in the order a newcomer meets them: sign up and log in, their own
 * account, the organization's data and people, then plans, billing and the deployment. The
 * reference lists the groups in this order. A tag missing here fails test/unit/openapi-tags.test.ts.
 */
export const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'Authentication', description: 'Start here. Sign up, verify the email, log in (the session cookie) and log out; or sign in through an OpenID Connect provider.' },
  { name: 'Password', description: 'Forgotten-password reset by email, and password change for a logged-in user.' },
  { name: 'Users', description: 'The logged-in user: who they are, their organization and their role.' },
  { name: 'Projects', description: "The caller's organization's projects: the example resource to copy for your own, with a plan quota." },
  { name: 'Notes', description: "The caller's organization's notes: text the AI copilot can improve or summarize." },
  { name: 'Members', description: "The users of the caller's organization and their roles: change a role, suspend, remove." },
  { name: 'Invitations', description: "Invitations into the caller's organization by email, and their acceptance, which creates the account." },
  { name: 'Sessions', description: "The caller's signed-in devices: list them, end one, or end every other." },
  { name: 'MFA', description: 'Two-factor sign-in with an authenticator app (TOTP): set it up, confirm it, disable it, and the second step of a login that needs it.' },
  { name: 'Passkeys', description: "Sign-in with a passkey (WebAuthn): enrol one on the caller's account, list, rename and remove them, and log in with one, without a password or a second step." },
  { name: 'ApiKeys', description: "Organization API keys for scripts and servers: create one with a role, send it as `Authorization: Bearer`, list and revoke them. A key belongs to the organization, not to the member who made it." },
  { name: 'Settings', description: "Settings of the caller's organization (org_admin) and of the whole deployment (sys_admin)." },
  { name: 'Audit', description: "The organization's audit log: who changed what, when and from where (sign-ins, credentials, members, keys, settings, billing), listed, filtered and exported as NDJSON for a SIEM." },
  { name: 'Plans', description: "Plans, their features and quotas: the caller's organization's effective plan and usage, and the catalogue a sys_admin edits." },
  { name: 'Billing', description: 'Stripe: subscription checkout and the customer portal, AI credit packs, and the webhook that applies Stripe events.' },
  { name: 'AI', description: "The AI copilot on a note: improve or summarize it. Needs a plan with AI and a provider key; every call is charged against the organization's token allowance and credits, never beyond." },
  { name: 'Usage', description: "The organization's AI usage: the current period, the call history and the heaviest users." },
  { name: 'Organizations', description: 'Every organization of the deployment, for system administrators: create, list, suspend, activate.' },
  { name: 'System', description: 'Probes, the deployment\'s features, this description and its reference page.' },
];

const API_DESCRIPTION = `A multi-tenant SaaS backend: accounts, organizations, roles, invitations and organization-scoped data.

**Authentication.** \`POST /auth/login\` sets an HttpOnly session cookie; send it with every other request
(\`credentials: 'include'\` in a browser). Roles rank \`readonly\` < \`member\` < \`org_admin\` < \`sys_admin\`;
an operation's *access* names the lowest role it accepts. Scripts and servers may instead send an
organization API key as \`Authorization: Bearer <key>\` (see \`createApiKey\`) on the operations that list the
\`apiKey\` scheme; never both a key and the session cookie on one request.

**Errors.** Every error is an \`ErrorResponse\` with a stable \`code\`; \`details\` maps each invalid field
(\`body.name\`, \`query.limit\`, \`path.project_id\`) to its message on a 422. A 429 or 503 carries \`Retry-After\`.

**Requests.** Bodies are JSON (\`Content-Type: application/json\`, at most 1 MiB); unknown fields are ignored unless a route says it refuses them.
An empty body (\`Content-Length: 0\`, whatever its \`Content-Type\`) is no body. A path with one trailing slash is served as the path without it.
Lists take an optional \`limit\` and an opaque \`cursor\` and send \`Link: <…>; rel="next"\` while more remain.
A \`201 Created\` names the new resource in \`Location\`.`;

/** Actions the converter cannot express; each one is described by a `v.metadata` beside it, or is not a limit. */
const UNDESCRIBED_ACTIONS = ['check', 'trim', 'to_lower_case', 'transform'];

/**
 * Valibot → JSON Schema. `errorMode: 'throw'`: a validation the description cannot express
 * stops the build instead of silently vanishing from it, so what is enforced is what is
 * described. Schemas listed as components are referred to by name.
 */
function converter(mode: Mode): { convert(schema: v.GenericSchema): JsonSchema; components(): Record<string, JsonSchema> } {
  const definitions = mode === 'input' ? REQUEST_COMPONENTS : RESPONSE_COMPONENTS;
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    typeMode: mode,
    errorMode: 'throw',
    ignoreActions: UNDESCRIBED_ACTIONS,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  };
  return {
    convert(schema) {
      const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(schema, { ...config, definitions }) as Json;
      return rest as JsonSchema;
    },
    components: () => toJsonSchemaDefs(definitions, config),
  };
}

/**
 * OpenAPI 3.1 description built from the route definitions and their valibot schemas: the same
 * objects that validate requests, so the description cannot drift from what the server enforces.
 * Every route is described whatever the settings (a disabled one answers 404), and the server URL
 * is relative: only the session cookie's name comes from the deployment.
 */
export function buildOpenApi(routes: readonly AnyRoute[], info: OpenApiInfo): Json {
  const input = converter('input');
  const output = converter('output');
  const described = routes.filter((route) => !route.hidden);
  const paths: Record<string, Json> = {};
  for (const route of described) {
    const item = (paths[route.path] ??= {});
    item[route.method] = operation(route, input.convert, output.convert);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: API_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: `${info.title} maintainers` },
    },
    servers: [{ url: '/', description: 'This server: paths are relative to where this description was fetched' }],
    tags: describedTags(described),
    paths,
    components: {
      schemas: { ...mergeComponents(input.components(), output.components()), ...errorSchemas() },
      responses: {
        UnreadableRequest: {
          description: "MALFORMED_REQUEST (400, 408 or 431): a request Node's HTTP parser cannot read, answered before routing",
          content: ERROR_BODY,
        },
        UnexpectedError: {
          description: 'INTERNAL_ERROR (500); SERVICE_UNAVAILABLE (503, with `Retry-After`) while a required dependency is down',
          content: ERROR_BODY,
        },
      },
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: info.sessionCookieName,
          description: 'The HttpOnly session cookie set by `POST /auth/login` (or the identity-provider callback).',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An organization API key (`tk_…`, made with `createApiKey`) as `Authorization: Bearer <key>`: it acts for its organization with its role on the operations that list this scheme. Never together with the session cookie (400 `MALFORMED_REQUEST`).',
        },
      },
    },
  };
}

/** A name used by both requests and responses (an enum) must mean the same in both. */
function mergeComponents(requests: Record<string, JsonSchema>, responses: Record<string, JsonSchema>): Record<string, JsonSchema> {
  for (const [name, schema] of Object.entries(requests)) {
    if (name in responses && !isDeepStrictEqual(responses[name], schema)) {
      throw new Error(`Component ${name} differs between requests and responses`);
    }
  }
  return Object.fromEntries(Object.entries({ ...requests, ...responses }).sort(([a], [b]) => a.localeCompare(b)));
}

function errorSchemas(): Json {
  return {
    ErrorCode: { type: 'string', enum: Object.keys(STATUS_BY_CODE), description: 'Stable, machine-readable error codes.' },
    ErrorResponse: {
      type: 'object',
      description: 'The body of every error answer.',
      required: ['code', 'message', 'error_id', 'details'],
      properties: {
        code: { $ref: '#/components/schemas/ErrorCode' },
        message: { type: 'string', description: 'For people; never a stack trace, SQL, a token or a password.' },
        error_id: { type: 'string', format: 'uuid', description: 'Also in the server log line of this error.' },
        details: {
          type: 'object',
          additionalProperties: true,
          description: 'On 422: field path → message. On RESOURCE_NOT_FOUND: `resource` and `resource_id`. Else often `{}`.',
        },
      },
    },
  };
}

function operation(route: AnyRoute, input: (s: v.GenericSchema) => JsonSchema, output: (s: v.GenericSchema) => JsonSchema): Json {
  const op: Json = {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description.trim(), accessLine(route)].join('\n\n'),
    parameters: [...parameters(route.params, 'path', input), ...parameters(route.query, 'query', input)],
  };
  if (route.body) {
    op.requestBody = { required: !route.bodyOptional, content: { 'application/json': { schema: input(route.body) } } };
  }
  op.responses = responses(route, output);
  op.security = route.access === 'public' ? [] : keysAccepted(route) ? [{ sessionCookie: [] }, { apiKey: [] }] : [{ sessionCookie: [] }];
  if (route.access !== 'public') op['x-required-role'] = route.access;
  if (route.rateLimit) op['x-rate-limit'] = route.rateLimit.per === 'user' ? `${route.rateLimit.rule} per user` : route.rateLimit.rule;
  return op;
}

/** Whether an organization API key may call the route: the router's rule, which never lets a key reach a sys_admin route. */
const keysAccepted = (route: AnyRoute): boolean => route.access !== 'public' && route.access !== 'sys_admin' && route.apiKeys === 'accepted';

function accessLine(route: AnyRoute): string {
  const credentials = keysAccepted(route) ? 'session cookie or API key' : 'session cookie only';
  const who = route.access === 'public' ? 'public' : `\`${route.access}\` or above (${credentials})`;
  const per = route.rateLimit?.per === 'user' ? 'user' : 'client IP';
  const limit = route.rateLimit ? ` Rate limit: ${route.rateLimit.rule} per ${per} (429 \`RATE_LIMITED\` beyond).` : '';
  return `**Access:** ${who}.${limit}`;
}

function parameters(schema: v.GenericSchema | undefined, where: 'path' | 'query', input: (s: v.GenericSchema) => JsonSchema): Json[] {
  if (!schema) return [];
  const object = input(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof description === 'string' ? { description } : {}),
    schema: property,
  }));
}

/** A query whose every parameter falls back to absent when invalid (the IdP callback) never answers 422. */
function canFail(schema: v.GenericSchema | undefined): boolean {
  if (!schema) return false;
  const entries = (schema as { entries?: Record<string, object> }).entries;
  return !(entries && Object.values(entries).every((entry) => 'fallback' in entry));
}

function responseContent(spec: ResponseSpec, output: (s: v.GenericSchema) => JsonSchema): Json {
  if (spec.schema) return { content: { [spec.mediaType ?? 'application/json']: { schema: output(spec.schema) } } };
  if (spec.mediaType) return { content: { [spec.mediaType]: { schema: { type: 'string' } } } };
  return {};
}

function responses(route: AnyRoute, output: (s: v.GenericSchema) => JsonSchema): Json {
  const out: Json = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    out[status] = {
      description: spec.description,
      ...responseContent(spec, output),
      ...(spec.headers
        ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([n, d]) => [n, { description: d, schema: { type: 'string' } }])) }
        : {}),
    };
  }
  const codes = new Set<ApiErrorCode>();
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const documented of route.errors ?? []) {
    const { code, status } = answeredAs(documented);
    if (status === STATUS_BY_CODE[code]) codes.add(code);
    else byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (route.enabled !== undefined) codes.add('NOT_FOUND');
  if (route.body) (['MALFORMED_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'] as const).forEach((c) => codes.add(c));
  if (route.body || route.params || canFail(route.query)) codes.add('VALIDATION_ERROR');
  if (route.access !== 'public') (['UNAUTHORIZED', 'ACCESS_DENIED'] as const).forEach((c) => codes.add(c));
  if (route.access !== 'public' && !route.allowWithoutMfa) codes.add('MFA_REQUIRED');
  if (route.rateLimit) codes.add('RATE_LIMITED');
  codes.delete('SERVICE_UNAVAILABLE'); // under `default`, with every other 5xx
  for (const code of codes) byStatus.set(STATUS_BY_CODE[code], [...(byStatus.get(STATUS_BY_CODE[code]) ?? []), code]);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] ??= {
      description: list.join(', '),
      content: ERROR_BODY,
      ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
    };
  }
  out['4XX'] = { $ref: '#/components/responses/UnreadableRequest' };
  out.default = { $ref: '#/components/responses/UnexpectedError' };
  return out;
}

/**
 * The tags of the described routes, in TAGS order; a tag missing from TAGS (a route added
 * without describing its tag) comes last, named only, and test/unit/openapi-tags.test.ts fails.
 */
function describedTags(routes: readonly AnyRoute[]): Array<{ name: string; description: string }> {
  const used = new Set(routes.map((route) => route.tag));
  const known = TAGS.filter((tag) => used.has(tag.name)).map((tag) => ({ ...tag }));
  const undescribed = [...used].filter((name) => !TAGS.some((tag) => tag.name === name)).sort();
  return [...known, ...undescribed.map((name) => ({ name, description: name }))];
}
