import * as v from 'valibot';
import { defineRoute, type AnyRoute } from '../route';
import { DOCS_ASSETS, DOCS_CSP, docsAsset, renderDocsPage, type DocsAsset } from '../docs-page';
import { ApiIndexResponse, HealthResponse, PongResponse } from '../schemas/system.schemas';

export interface HealthCheck {
  name: string;
  /** Whether a failure makes the service unhealthy (503) or is only reported. */
  required: boolean;
  check(): Promise<void>;
}

const HEALTH_TIMEOUT_MS = 2_000;


async function runCheck(check: HealthCheck): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), HEALTH_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export interface SystemRouteDeps {
  healthChecks: HealthCheck[];
  openApi: () => Record<string, unknown>;
  name: string;
  version: string;
}

export function systemRoutes(deps: SystemRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      tag: 'System',
      operationId: 'getIndex',
      summary: 'Where to go from the base URL',
      description: 'Links to the reference page, this description and the readiness probe.',
      access: 'public',
      responses: { 200: { description: 'The links', schema: ApiIndexResponse } },
      handler: async () => ({
        status: 200,
        body: { name: deps.name, version: deps.version, docs: '/docs', openapi: '/openapi.json', health: '/health' },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/ping',
      tag: 'System',
      operationId: 'ping',
      summary: 'Liveness probe',
      description: "Answers `{\"message\": \"pong\"}` while the process serves HTTP; it touches no dependency. For liveness probes.",
      access: 'public',
      responses: { 200: { description: 'Alive', schema: PongResponse } },
      handler: async () => ({ status: 200, body: { message: 'pong' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/health',
      tag: 'System',
      operationId: 'health',
      summary: 'Readiness: checks the database and, when configured, Redis',
      description: "Checks the database and, when `APP_REDIS_URL` is set, Redis, each within 2 seconds: 200 while every required dependency answers, 503 naming the failing check otherwise. For readiness probes and load balancers.",
      access: 'public',
      responses: {
        200: { description: 'Every required dependency answers', schema: HealthResponse },
        503: { description: 'A required dependency is down', schema: HealthResponse },
      },
      handler: async () => {
        const checks: Record<string, 'ok' | 'down' | 'disabled'> = { database: 'disabled', redis: 'disabled' };
        const results = await Promise.all(deps.healthChecks.map(async (c) => [c, await runCheck(c)] as const));
        for (const [check, result] of results) checks[check.name] = result;
        const healthy = results.every(([check, result]) => result === 'ok' || !check.required);
        return { status: healthy ? 200 : 503, body: { status: healthy ? 'ok' : 'unavailable', checks } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tag: 'System',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI 3.1 description',
      description: "This document, generated from the same schemas that validate requests. It is the same whatever the settings: only `servers` and the session cookie name reflect the deployment.",
      access: 'public',
      responses: { 200: { description: 'The description', schema: v.looseObject({ openapi: v.literal('3.1.0') }) } },
      handler: async () => ({ status: 200, body: deps.openApi() }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      tag: 'System',
      operationId: 'getDocs',
      summary: 'Human-readable API reference',
      description:
        "An HTML reference rendered in the browser by Swagger UI from `/openapi.json`, from which every operation can be sent (\"Try it out\"): on this origin, so logging in from the page carries the session to the operations after it. Every script and style it loads is served by this server.",
      access: 'public',
      responses: { 200: { description: 'An HTML page', mediaType: 'text/html' } },
      handler: async ({ ctx }) => {
        ctx.set('Content-Security-Policy', DOCS_CSP);
        ctx.type = 'text/html; charset=utf-8';
        return { status: 200, body: renderDocsPage(deps.name) };
      },
    }),
    ...Object.entries(DOCS_ASSETS).map(([name, mediaType]) =>
      defineRoute({
        method: 'get',
        path: `/docs/${name}`,
        tag: 'System',
        operationId: `getDocsAsset_${name.replace(/\W/g, '_')}`,
        summary: `The docs page's ${name}`,
        description: 'Served from node_modules/swagger-ui-dist, or written by this server.',
        access: 'public',
        hidden: true,
        responses: { 200: { description: 'A file of the page', mediaType } },
        handler: async ({ ctx }) => {
          ctx.type = mediaType;
          return { status: 200, body: await docsAsset(name as DocsAsset) };
        },
      }),
    ),
  ];
}
