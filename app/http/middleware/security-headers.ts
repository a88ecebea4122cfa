import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The security headers every response carries (errors, 404/405, 429, CORS preflights and
 * redirects included): set before anything downstream runs (app/http/middleware/edge.ts).
 * Helmet supplies the standard set; `Cache-Control: no-store` and the CSP are ours. Constants,
 * computed once at startup.
 */
export function securityHeaderList(options: { hsts: boolean }): ReadonlyArray<readonly [string, string]> {
  return [['Cache-Control', 'no-store'], ['Content-Security-Policy', API_CSP], ...helmetHeaders(options)];
}

/**
 * Helmet's headers for our options, asked of helmet once at startup. With these options every
 * one of its middlewares sets a fixed header whatever the request, so running it per request
 * (through a promise per request) would only recompute the same list. Anything else it did
 * (remove a header, call back later or with an error) would break that premise: startup fails.
 */
function helmetHeaders(options: { hsts: boolean }): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const unexpected = (what: string) => {
    throw new Error(`helmet ${what}: its headers can no longer be computed once at startup`);
  };
  const res = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') unexpected(`set ${name} to a non-string`);
      headers.push([name, value as string]);
      return res;
    },
    removeHeader: (name: string) => unexpected(`removed ${name}`),
  };
  let done = false;
  helmet({
    contentSecurityPolicy: false, // set above, byte for byte as the contract writes it
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true, preload: false } : false,
    xPoweredBy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  })({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    if (error) unexpected('failed');
    done = true;
  });
  if (!done) unexpected('did not finish at once');
  return headers;
}
