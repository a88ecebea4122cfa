import type { Context } from 'koa';
import type { AppConfig } from '../config/config';

export const IDP_BINDING_COOKIE = 'idp_binding';
/** The cookie goes only to the two identity-provider routes. */
export const IDP_COOKIE_PATH = '/auth/oauth/idp';

/**
 * The one-time cookie that binds an identity-provider sign-in to the browser that started it
 * and lives as long as the flow. `SameSite=Lax`, even where the session cookie is Strict: it
 * must come back on the provider's top-level redirect to the callback. Built by hand, like SessionCookie, so that
 * `Secure` does not depend on Koa guessing the scheme behind a proxy.
 */
export class IdpBindingCookie {
  constructor(private readonly config: Pick<AppConfig, 'environment'>) {}

  read(ctx: Context): string | undefined {
    return ctx.cookies.get(IDP_BINDING_COOKIE) || undefined;
  }

  set(ctx: Context, binding: string, maxAgeSeconds: number): void {
    ctx.append('Set-Cookie', this.serialize(binding, maxAgeSeconds));
  }

  clear(ctx: Context): void {
    ctx.append('Set-Cookie', this.serialize('', 0));
  }

  private serialize(value: string, maxAge: number): string {
    const secure = this.config.environment === 'dev' ? [] : ['Secure'];
    return [`${IDP_BINDING_COOKIE}=${value}`, `Path=${IDP_COOKIE_PATH}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax', ...secure].join('; ');
  }
}
