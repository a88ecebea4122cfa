import * as v from 'valibot';
import { defineRoute, type AnyRoute } from '../route';
import { DOCS_CSP, renderDocsPage } from '../docs-page';

export interface HealthCheck {
  name: string;
  /** Whether a failure makes the service unhealthy (503) or is only reported. */
  required: boolean;
  check(): Promise<void>;
}

const HEALTH_TIMEOUT_MS = 2_000;

const checkStatus = v.picklist(['ok', 'down', 'disabled']);
const healthSchema = v.object({
  status: v.picklist(['ok', 'unavailable']),
  checks: v.object({ database: checkStatus, redis: checkStatus }),
});

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

export function systemRoutes(deps: { healthChecks: HealthCheck[]; openApi: () => Record<string, unknown> }): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/ping',
      tag: 'System',
      operationId: 'ping',
      summary: 'Liveness probe',
      access: 'public',
      responses: { 200: { description: 'Alive', schema: v.object({ message: v.literal('pong') }) } },
      handler: async () => ({ status: 200, body: { message: 'pong' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/health',
      tag: 'System',
      operationId: 'health',
      summary: 'Readiness: checks the database and, when configured, Redis',
      access: 'public',
      responses: {
        200: { description: 'Every required dependency answers', schema: healthSchema },
        503: { description: 'A required dependency is down', schema: healthSchema },
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
      access: 'public',
      responses: { 200: { description: 'The description' } },
      handler: async () => ({ status: 200, body: deps.openApi() }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      tag: 'System',
      operationId: 'getDocs',
      summary: 'Human-readable API reference',
      access: 'public',
      responses: { 200: { description: 'HTML page' } },
      handler: async ({ ctx }) => {
        ctx.set('Content-Security-Policy', DOCS_CSP);
        ctx.type = 'text/html; charset=utf-8';
        return { status: 200, body: renderDocsPage(deps.openApi() as Parameters<typeof renderDocsPage>[0]) };
      },
    }),
  ];
}
