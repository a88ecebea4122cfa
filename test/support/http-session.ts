import type { TestApp } from './app';

let nextClient = 0;
/** A distinct documentation-range address per browser, so per-IP rate limits never couple tests. */
const freshIp = () => {
  nextClient += 1;
  return `198.18.${(nextClient >> 8) & 255}.${nextClient & 255}`;
};

/** Cookies the way a browser keeps them for one site, enough for session flows in tests. */
export class HttpSession {
  private readonly jar = new Map<string, string>();
  /** The Set-Cookie headers of the last response. */
  lastSetCookies: string[] = [];

  constructor(
    private readonly app: TestApp,
    /** Sent as X-Forwarded-For, so rate limits can be tested per client IP. */
    private readonly ip = freshIp(),
  ) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const cookie = [...this.jar].map(([n, v]) => `${n}=${v}`).join('; ');
    const response = await this.app.request(path, {
      method,
      headers: {
        'X-Forwarded-For': this.ip,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    this.lastSetCookies = response.headers.getSetCookie();
    for (const header of this.lastSetCookies) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split('=');
      if (attributes.some((a) => /^max-age=0$/i.test(a))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }

  post(path: string, body?: unknown) {
    return this.send('POST', path, body);
  }

  get(path: string) {
    return this.send('GET', path);
  }
}
