import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';

/**
 * Cookies for one client, as a browser keeps them for one site: Domain, Path, Secure and SameSite
 * are ignored because the tests talk to a single loopback origin.
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

/** The generated, typed client over `fetch`, carrying cookies in `cookieJar` between calls. */
export function createApiClient(baseUrl: string, cookieJar: CookieJar = new CookieJar()): ApiClient {
  return createClient<paths>({
    baseUrl,
    fetch: async (request) => {
      const cookie = cookieJar.header();
      if (cookie) request.headers.set('Cookie', cookie);
      const response = await fetch(request);
      cookieJar.store(response);
      return response;
    },
  });
}
