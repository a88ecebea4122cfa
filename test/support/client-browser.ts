import createClient from 'openapi-fetch';
import type { paths } from '../../app/client/api';
import { CookieJar } from '../../app/client/index';
import type { TestApp } from './app';

let nextIp = 0;

/**
 * One browser speaking through the generated client's types: its own cookies, its own client IP
 * in `subnet` (so per-IP limits never couple tests), a User-Agent; the Set-Cookie lines of the
 * last response kept for assertions.
 */
export function clientBrowser(app: TestApp, options: { subnet: string; userAgent?: string }) {
  nextIp += 1;
  const jar = new CookieJar();
  let lastSetCookies: string[] = [];
  const api = createClient<paths>({
    baseUrl: app.url,
    headers: {
      'User-Agent': options.userAgent ?? 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      'X-Forwarded-For': `${options.subnet}.${(nextIp >> 8) & 255}.${nextIp & 255}`,
    },
    fetch: async (request) => {
      const cookie = jar.header();
      if (cookie) request.headers.set('Cookie', cookie);
      const response = await fetch(request);
      lastSetCookies = response.headers.getSetCookie();
      jar.store(response);
      return response;
    },
  });
  return { api, jar, setCookies: () => lastSetCookies };
}

export type ClientBrowser = ReturnType<typeof clientBrowser>;
