/** One HTTP exchange the browser made, redirects included. */
export interface Hop {
  method: string;
  url: string;
  status: number;
  location: string | null;
}

export interface Page {
  /** The last URL reached: fetched, or (when `stopped`) the redirect target left unvisited. */
  url: URL;
  /** Status of the last fetched response (a 3xx when `stopped`). */
  status: number;
  /** Body of the last fetched response ('' when `stopped`). */
  body: string;
  /** True when a redirect pointed at a `stopAt` prefix and was not followed. */
  stopped: boolean;
  /** The exchanges of this navigation, in order. */
  hops: Hop[];
}

export interface NavigationOptions {
  /** Do not follow a redirect whose target starts with this, e.g. the app's callback URL. */
  stopAt?: string;
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expiresAt: number | null;
}

interface PendingRequest {
  method: 'GET' | 'POST';
  url: URL;
  body?: URLSearchParams;
}

/**
 * A minimal browser for flow tests: cookie jar, manual redirects, HTML forms. Cookies are keyed by
 * hostname, not port, as real browsers do; Domain, Secure and SameSite are ignored (all traffic is
 * to one loopback host).
 */
export class TestBrowser {
  /** Every exchange of every navigation, in order. */
  readonly history: Hop[] = [];
  private readonly jar = new Map<string, Map<string, StoredCookie>>();
  private readonly maxRedirects: number;
  private readonly timeoutMs: number;

  constructor(options: { maxRedirects?: number; timeoutMs?: number } = {}) {
    this.maxRedirects = options.maxRedirects ?? 10;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  get(url: string | URL, options: NavigationOptions = {}): Promise<Page> {
    return this.navigate({ method: 'GET', url: new URL(url) }, options);
  }

  /** Submits the `index`th form of the page with its `<input>` values, `overrides` winning. */
  submitForm(page: Page, overrides: Record<string, string> = {}, options: NavigationOptions & { index?: number } = {}): Promise<Page> {
    const form = [...page.body.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)][options.index ?? 0];
    if (!form) throw new Error(`No form on ${page.url.href}`);
    const attributes = parseAttributes(form[1] ?? '');
    const action = new URL(attributes.get('action') ?? page.url.href, page.url);
    const fields = new URLSearchParams();
    for (const input of (form[2] ?? '').matchAll(/<input\b([^>]*)>/gi)) {
      const field = parseAttributes(input[1] ?? '');
      const name = field.get('name');
      if (name !== undefined && !(name in overrides)) fields.append(name, field.get('value') ?? '');
    }
    for (const [name, value] of Object.entries(overrides)) fields.append(name, value);
    const method = (attributes.get('method') ?? 'get').toUpperCase();
    if (method === 'POST') return this.navigate({ method: 'POST', url: action, body: fields }, options);
    action.search = fields.toString();
    return this.navigate({ method: 'GET', url: action }, options);
  }

  /** Follows the first `<a href>` whose text contains `text`. */
  followLink(page: Page, text: string, options: NavigationOptions = {}): Promise<Page> {
    for (const link of page.body.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
      const href = parseAttributes(link[1] ?? '').get('href');
      if (href !== undefined && (link[2] ?? '').includes(text)) return this.get(new URL(href, page.url), options);
    }
    throw new Error(`No link "${text}" on ${page.url.href}`);
  }

  /** The cookies this browser would send to `url`, as name → value. */
  cookiesFor(url: string | URL): Map<string, string> {
    const target = new URL(url);
    const cookies = new Map<string, string>();
    for (const cookie of this.jar.get(target.hostname)?.values() ?? []) {
      if (cookie.expiresAt !== null && cookie.expiresAt <= Date.now()) continue;
      if (pathMatches(target.pathname, cookie.path)) cookies.set(cookie.name, cookie.value);
    }
    return cookies;
  }

  private async navigate(first: PendingRequest, options: NavigationOptions): Promise<Page> {
    const hops: Hop[] = [];
    let request = first;
    for (;;) {
      const cookie = [...this.cookiesFor(request.url)].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(request.url, {
        method: request.method,
        body: request.body,
        headers: { accept: 'text/html,application/json', ...(cookie ? { cookie } : {}) },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      for (const header of response.headers.getSetCookie()) this.store(request.url, header);
      const location = response.headers.get('location');
      const hop = { method: request.method, url: request.url.href, status: response.status, location };
      hops.push(hop);
      this.history.push(hop);
      if (response.status < 300 || response.status >= 400 || location === null) {
        return { url: request.url, status: response.status, body: await response.text(), stopped: false, hops };
      }
      await response.body?.cancel();
      const target = new URL(location, request.url);
      if (options.stopAt !== undefined && target.href.startsWith(options.stopAt)) {
        return { url: target, status: response.status, body: '', stopped: true, hops };
      }
      if (hops.length > this.maxRedirects) throw new Error(`More than ${this.maxRedirects} redirects from ${first.url.href}`);
      // 307/308 replay the request; every other redirect becomes a GET, as in browsers.
      const replay = response.status === 307 || response.status === 308;
      request = replay ? { ...request, url: target } : { method: 'GET', url: target };
    }
  }

  private store(requestUrl: URL, header: string): void {
    const [pair = '', ...attributes] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator < 1) return;
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    let path = defaultPath(requestUrl.pathname);
    let expiresAt: number | null = null;
    let maxAgeExpiry: number | null = null;
    for (const attribute of attributes) {
      const [key = '', ...rest] = attribute.split('=');
      const attributeValue = rest.join('=').trim();
      switch (key.trim().toLowerCase()) {
        case 'path':
          if (attributeValue.startsWith('/')) path = attributeValue;
          break;
        case 'max-age':
          // Max-Age wins over Expires; an unparsable value is ignored, as RFC 6265 says.
          if (/^-?\d+$/.test(attributeValue)) maxAgeExpiry = Date.now() + Number(attributeValue) * 1000;
          break;
        case 'expires':
          if (Number.isFinite(Date.parse(attributeValue))) expiresAt = Date.parse(attributeValue);
          break;
      }
    }
    expiresAt = maxAgeExpiry ?? expiresAt;
    const cookies = this.jar.get(requestUrl.hostname) ?? new Map<string, StoredCookie>();
    this.jar.set(requestUrl.hostname, cookies);
    const key = `${name};${path}`;
    if (expiresAt !== null && expiresAt <= Date.now()) cookies.delete(key);
    else cookies.set(key, { name, value, path, expiresAt });
  }
}

/** RFC 6265 §5.1.4. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

/** RFC 6265 §5.1.4: the request path up to, not including, its last '/'. */
function defaultPath(requestPath: string): string {
  const last = requestPath.lastIndexOf('/');
  return last <= 0 ? '/' : requestPath.slice(0, last);
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/([^\s"'=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!attributes.has(name)) attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
    return named[code.toLowerCase()] ?? entity;
  });
}
