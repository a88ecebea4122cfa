import type { Context } from 'koa';
import type { AppConfig } from '../config/config';

/**
 * The session cookie: HttpOnly, `Path=/`, SameSite=Strict and Secure outside dev (Lax, over plain
 * http, in dev). Built by hand rather than through `ctx.cookies.set` so that `Secure` does not depend on Koa guessing the scheme behind a
 * TLS-terminating proxy.
 */
export class SessionCookie {
  constructor(private readonly config: Pick<AppConfig, 'sessionCookieName' | 'sessionCookieMaxAge' | 'environment'>) {}

  read(ctx: Context): string | undefined {
    return ctx.cookies.get(this.config.sessionCookieName) || undefined;
  }

  set(ctx: Context, token: string): void {
    ctx.append('Set-Cookie', this.serialize(token, this.config.sessionCookieMaxAge));
  }

  clear(ctx: Context): void {
    ctx.append('Set-Cookie', this.serialize('', 0));
  }

  private serialize(value: string, maxAge: number): string {
    const dev = this.config.environment === 'dev';
    return [
      `${this.config.sessionCookieName}=${value}`,
      'Path=/',
      `Max-Age=${maxAge}`,
      'HttpOnly',
      ...(dev ? ['SameSite=Lax'] : ['SameSite=Strict', 'Secure']),
    ].join('; ');
  }
}

