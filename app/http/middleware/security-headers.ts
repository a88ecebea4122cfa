import type { Middleware } from 'koa';
import helmet from 'koa-helmet';

/**
 * The security headers, set before anything downstream runs so that every response carries them:
 * errors, 404/405, 429, CORS preflights and redirects included. Helmet supplies the standard
 * set; `Cache-Control: no-store` is ours.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaders(options: { hsts: boolean }): Middleware {
  const headers = helmet({
    contentSecurityPolicy: false, // set below, byte for byte as the contract writes it
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true, preload: false } : false,
    xPoweredBy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  return async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', API_CSP);
    await headers(ctx, next);
  };
}
