import type { Middleware } from 'koa';
import koaHelmet from 'koa-helmet';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The security headers every response carries (errors, 404/405, 429, CORS preflights and
 * redirects included): the outermost middleware, so they are set before anything else runs and
 * stay set whatever the edge answers. Helmet (through koa-helmet) supplies the standard set;
 * `Cache-Control: no-store` and the CSP are ours: the CSP is the exact string clients are promised,
 * which helmet would spell differently.
 */
export function securityHeaders(options: { hsts: boolean }): Middleware {
  const standard = koaHelmet({
    contentSecurityPolicy: false, // set below, byte for byte
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true, preload: false } : false,
    xPoweredBy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  return (ctx, next) => {
    ctx.res.setHeader('Cache-Control', 'no-store');
    ctx.res.setHeader('Content-Security-Policy', API_CSP);
    return standard(ctx, next);
  };
}
