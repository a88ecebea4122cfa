import type { Context } from 'koa';
import type { AppConfig } from '../config/config';
import { CHALLENGE_TTL_SECONDS } from '../../core/mfa/mfa-deps';

/**
 * An HttpOnly cookie on `Path=/` with the deployment's SameSite/Secure rules: `SameSite=Lax` in
 * dev, `SameSite=Strict; Secure` elsewhere. Built by hand rather than through `ctx.cookies.set`
 * so that `Secure` does not depend on Koa guessing the scheme behind a TLS-terminating proxy.
 */
export function serializeCookie(name: string, value: string, maxAge: number, environment: AppConfig['environment']): string {
  const dev = environment === 'dev';
  return [`${name}=${value}`, 'Path=/', `Max-Age=${maxAge}`, 'HttpOnly', ...(dev ? ['SameSite=Lax'] : ['SameSite=Strict', 'Secure'])].join('; ');
}

/** The session cookie: lifetime APP_SESSION_COOKIE_MAX_AGE, cleared on logout with `Max-Age=0`. */
export class SessionCookie {
  constructor(private readonly config: Pick<AppConfig, 'sessionCookieName' | 'sessionCookieMaxAge' | 'environment'>) {}

  read(ctx: Context): string | undefined {
    return ctx.cookies.get(this.config.sessionCookieName) || undefined;
  }

  set(ctx: Context, token: string): void {
    ctx.append('Set-Cookie', serializeCookie(this.config.sessionCookieName, token, this.config.sessionCookieMaxAge, this.config.environment));
  }

  clear(ctx: Context): void {
    ctx.append('Set-Cookie', serializeCookie(this.config.sessionCookieName, '', 0, this.config.environment));
  }
}

export const MFA_CHALLENGE_COOKIE = 'mfa_challenge';

/**
 * The cookie that carries a sign-in from its first factor to its second: the same flags as the
 * session cookie, lifetime of the challenge (5 minutes), cleared once used.
 */
export class MfaChallengeCookie {
  constructor(private readonly config: Pick<AppConfig, 'environment'>) {}

  read(ctx: Context): string | undefined {
    return ctx.cookies.get(MFA_CHALLENGE_COOKIE) || undefined;
  }

  set(ctx: Context, token: string): void {
    ctx.append('Set-Cookie', serializeCookie(MFA_CHALLENGE_COOKIE, token, CHALLENGE_TTL_SECONDS, this.config.environment));
  }

  clear(ctx: Context): void {
    ctx.append('Set-Cookie', serializeCookie(MFA_CHALLENGE_COOKIE, '', 0, this.config.environment));
  }
}

