import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { STATUS_BY_CODE, type ApiErrorCode } from './error-mapping';
import type { AnyRoute } from './route';

export interface OpenApiInfo {
  title: string;
  version: string;
  serverUrl: string;
  sessionCookieName: string;
}

type Json = Record<string, unknown>;

const errorResponseSchema = {
  type: 'object',
  required: ['code', 'message', 'error_id', 'details'],
  properties: {
    code: { type: 'string', enum: Object.keys(STATUS_BY_CODE) },
    message: { type: 'string' },
    error_id: { type: 'string', format: 'uuid' },
    details: { type: 'object', additionalProperties: true },
  },
};

/**
 * OpenAPI 3.1 description built from the route definitions and their valibot schemas: the same
 * objects that validate requests, so the description cannot drift from what the server enforces.
 */
export function buildOpenApi(routes: readonly AnyRoute[], info: OpenApiInfo): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const item = (paths[route.path] ??= {});
    item[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    tags: [...new Set(routes.filter((r) => !r.hidden).map((r) => r.tag))].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: { ErrorResponse: errorResponseSchema },
      securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: info.sessionCookieName } },
    },
  };
}

function operation(route: AnyRoute): Json {
  const op: Json = {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    responses: responses(route),
  };
  if (route.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
  }
  if (route.access !== 'public') {
    op.security = [{ sessionCookie: [] }];
    op['x-required-role'] = route.access;
  }
  if (route.rateLimit) op['x-rate-limit'] = route.rateLimit.per === 'user' ? `${route.rateLimit.rule} per user` : route.rateLimit.rule;
  return op;
}

function parameters(schema: v.GenericSchema | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

function responses(route: AnyRoute): Json {
  const out: Json = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    out[status] = {
      description: spec.description,
      ...(spec.schema ? { content: { 'application/json': { schema: jsonSchema(spec.schema, 'output') } } } : {}),
      ...(spec.headers
        ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([n, d]) => [n, { description: d, schema: { type: 'string' } }])) }
        : {}),
    };
  }
  const codes = new Set<ApiErrorCode>(route.errors ?? []);
  if (route.body) (['MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE'] as const).forEach((c) => codes.add(c));
  if (route.body || route.params || route.query) codes.add('VALIDATION_ERROR');
  if (route.access !== 'public') (['UNAUTHORIZED', 'ACCESS_DENIED'] as const).forEach((c) => codes.add(c));
  if (route.access !== 'public' && !route.allowWithoutMfa) codes.add('MFA_REQUIRED');
  if (route.rateLimit) codes.add('RATE_LIMITED');
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_BY_CODE[code], [...(byStatus.get(STATUS_BY_CODE[code]) ?? []), code]);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] ??= {
      description: list.join(', '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    };
  }
  out.default = {
    description: 'INTERNAL_ERROR, SERVICE_UNAVAILABLE',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
  };
  return out;
}

function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode, errorMode: 'ignore' }) as Json;
  return rest as JsonSchema;
}
