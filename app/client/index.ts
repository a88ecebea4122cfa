import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './api.js';

/**
 * `@tenantkit/client`: a typed client for this API, generated from its OpenAPI description
 * (`npm run client` writes ./api.ts; `npm run build` builds this package to ./dist).
 * Every request and response is typed by path and method, and each named schema of the
 * description is a type here: `Project`, `Member`, `User`, `ErrorResponse`...
 */
export type * from './api.js';

/**
 * Cookies for one client outside a browser (a server, a script, a test), kept as a browser keeps
 * them for one site. Domain, Path, Secure and SameSite are ignored: it talks to one API origin.
 * In a browser, leave it out: the browser keeps the HttpOnly session cookie itself.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  clear(): void {
    this.cookies.clear();
  }

  header(): string | undefined {
    return this.cookies.size === 0 ? undefined : [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Takes in every `Set-Cookie` of a response; `Max-Age=0` or an empty value removes the cookie. */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator <= 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export type ApiClient = Client<paths>;

export interface ApiClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Carry the session cookie between calls outside a browser. */
  cookieJar?: CookieJar;
  /**
   * An organization API key (`tk_…`), sent as `Authorization: Bearer` on every call instead of a
   * session cookie. Never with a `cookieJar` that holds a session: the API refuses both at once.
   */
  apiKey?: string;
}

/**
 * The typed client over `fetch`. In a browser pass `{ credentials: 'include' }` (the API and the
 * frontend are different origins); elsewhere pass a `cookieJar`, or an organization `apiKey`.
 */
export function createApiClient(baseUrl: string, options: ApiClientOptions | CookieJar = {}): ApiClient {
  const { cookieJar, apiKey, fetch: send = globalThis.fetch, ...rest } = options instanceof CookieJar ? { cookieJar: options } : options;
  if (apiKey !== undefined) {
    const authorization = `Bearer ${apiKey}`;
    return createClient<paths>({
      ...rest,
      baseUrl,
      fetch: (request) => {
        request.headers.set('Authorization', authorization);
        return send(request);
      },
    });
  }
  if (!cookieJar) return createClient<paths>({ ...rest, baseUrl, fetch: send });
  return createClient<paths>({
    ...rest,
    baseUrl,
    fetch: async (request) => {
      const cookie = cookieJar.header();
      if (cookie) request.headers.set('Cookie', cookie);
      const response = await send(request);
      cookieJar.store(response);
      return response;
    },
  });
}
