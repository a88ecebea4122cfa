import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../app/config/config';
import { createContainer } from '../../app/container/container';
import type { Infrastructure } from '../../app/container/infrastructure';
import { createLogger } from '../../app/logging';
import { composeRoutes } from '../../app/server';
import type { AnyRoute } from '../../app/http/route';
import type { Database } from '../../adapters/postgres/database';
import { SystemClock } from '../../adapters/system/system-clock';

/** Where `npm run client` writes the types; checked in, so contract drift shows up in review. */
export const GENERATED_TYPES_PATH = fileURLToPath(new URL('../../app/client/api.ts', import.meta.url));

/**
 * Routes are only described, never called, so the container gets infrastructure that refuses to
 * be used: nothing is opened and a module that touches the database while binding fails loudly.
 */
export function offlineInfrastructure(): Infrastructure {
  const database = new Proxy({} as Database, {
    get(_target, property) {
      // Inversify probes resolved values for `then` to tell promises apart.
      if (property === 'then' || typeof property === 'symbol') return undefined;
      throw new Error(`The OpenAPI document was built without a database (Database.${String(property)} was used)`);
    },
  });
  const mailer = { send: async () => Promise.reject(new Error('The OpenAPI document was built without a mailer')) };
  return { clock: new SystemClock(), database, redis: undefined, rateLimitRedis: undefined, mailer, encryptionKey: Buffer.alloc(32), close: async () => undefined };
}

/** Every route as `npm start` composes it with `env`, over infrastructure that refuses to be used. */
export function offlineRoutes(env: Record<string, string> = {}): AnyRoute[] {
  const { config } = loadConfig(env);
  return composeRoutes(createContainer(config, createLogger('silent'), offlineInfrastructure()), config);
}

/** Exactly what `GET /openapi.json` serves, built in-process with default settings (or `env`). */
export async function buildOpenApiDocument(env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const route = offlineRoutes(env).find((r) => r.operationId === 'getOpenApi');
  if (!route) throw new Error('The getOpenApi route is missing');
  const reply = await route.handler({ body: undefined, params: undefined, query: undefined, caller: undefined, clientIp: '127.0.0.1', ctx: undefined as never });
  return reply.body as Record<string, unknown>;
}

/** The TypeScript types openapi-fetch is typed with, as the checked-in file holds them. */
export async function renderApiTypes(document: Record<string, unknown>): Promise<string> {
  // rootTypes: each named schema is also a top-level type (`Project`, not only components['schemas']['Project']).
  const ast = await openapiTS(document as unknown as OpenAPI3, { rootTypes: true, rootTypesNoSchemaPrefix: true, defaultNonNullable: false });
  return `${COMMENT_HEADER.trimEnd()}\n// Generated from the route definitions by \`npm run client\` (test/client/generate.ts).\n\n${astToString(ast)}`;
}
