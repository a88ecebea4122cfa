import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import * as v from 'valibot';
import { integer } from '../schemas/integer-param.schema';
import { DomainError } from '../../../core/shared/domain-error';
import { defineRoute, type AnyRoute } from '../route';
import { HttpError } from '../http-error';

export interface CronDeps {
  /** APP_CRON_SECRET. */
  secret: string;
  /** Runs the session prune; returns how many sessions it deleted. */
  pruneSessions(): Promise<number>;
  /** Deletes the audit events past their retention; returns how many. */
  pruneAuditEvents(): Promise<number>;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Constant time in the secret's content and length alike: both sides are hashed to 32 bytes
 * before the comparison, so neither an early mismatch nor a length difference is measurable.
 */
export function cronSecretMatches(presented: string, secret: string): boolean {
  return secret.length > 0 && timingSafeEqual(digest(presented), digest(secret));
}

function presentedSecret(ctx: Context): string {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(ctx.get('Authorization'));
  return bearer?.[1] ?? ctx.get('X-Cron-Secret');
}

/**
 * `/cron`: for an external scheduler (a platform cron, GitHub Actions, k8s CronJob) when no
 * worker runs. Public to the router, because it is gated by the cron secret,
 * not by a session; left out of the OpenAPI description.
 */
export function cronRoutes(deps: CronDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      alsoMethods: ['post'],
      path: '/cron',
      tag: 'System',
      operationId: 'cron',
      summary: 'Runs the scheduled maintenance: prunes expired sessions and audit events past their retention',
      description: "Gated by `APP_CRON_SECRET`, not by a session; not in this description.",
      access: 'public',
      hidden: true,
      serverToServer: true,
      responses: { 200: { description: 'Done', schema: v.object({ pruned_sessions: integer, pruned_audit_events: integer }) } },
      errors: ['UNAUTHORIZED'],
      handler: async ({ ctx }) => {
        // The router answers HEAD for every GET route; HEAD must not run a job and drop its result.
        if (ctx.method === 'HEAD') throw new HttpError('METHOD_NOT_ALLOWED', 'HEAD is not allowed here', { allow: ['GET', 'POST'] });
        if (!cronSecretMatches(presentedSecret(ctx), deps.secret)) {
          throw new DomainError('UNAUTHORIZED', 'A valid cron secret is required');
        }
        return { status: 200, body: { pruned_sessions: await deps.pruneSessions(), pruned_audit_events: await deps.pruneAuditEvents() } };
      },
    }),
  ];
}
