import type { Context } from 'koa';
import { DomainError } from '../../../core/shared/domain-error';

/** Methods a browser may send cross-site without consequences: they change nothing here. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a browser sent on behalf of another site. SameSite on
 * the session cookie is not enough on its own: `Lax` (dev) lets top-level POSTs through, older
 * browsers ignore it, and a sibling subdomain counts as the same site. A browser always sends
 * `Origin` on such requests, and `Sec-Fetch-Site` when it supports Fetch Metadata; a request
 * with neither comes from no browser at all (curl, a server), which holds no victim's cookie.
 * Routes other servers call (webhooks, cron) authenticate by signature or secret and skip this.
 */
export function assertNotCrossSite(ctx: Context, allowedOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const origin = ctx.get('Origin');
  if (origin !== '') {
    if (allowedOrigins.has(origin)) return;
    throw refused(origin);
  }
  if (ctx.get('Sec-Fetch-Site') === 'cross-site') throw refused(null);
}

const refused = (origin: string | null) =>
  new DomainError('ACCESS_DENIED', 'Cross-site request refused: this origin may not change anything here', {
    reason: 'cross_site_request',
    origin,
  });

/** The browser origins allowed to call the API: the CORS origins and the API's own (its /docs page). */
export function allowedRequestOrigins(corsOrigins: readonly string[], baseApiUrl: string): ReadonlySet<string> {
  return new Set([...corsOrigins, new URL(baseApiUrl).origin]);
}
