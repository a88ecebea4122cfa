import type { Context } from 'koa';
import type { AppConfig } from '../config/config';
import { CHALLENGE_TTL_SECONDS } from '../../core/mfa/mfa-deps';
import { PASSKEY_CHALLENGE_TTL_SECONDS } from '../../core/passkeys/passkey';

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
export const PASSKEY_CHALLENGE_COOKIE = 'passkey_challenge';

/** A cookie that carries a sign-in in progress: the session cookie's flags, the challenge's lifetime, cleared once used. */
class ChallengeCookie {
  constructor(
    private readonly name: string,
    private readonly maxAgeSeconds: number,
    private readonly config: Pick<AppConfig, 'environment'>,
  ) {}

  read(ctx: Context): string | undefined {
    return ctx.cookies.get(this.name) || undefined;
  }

  set(ctx: Context, token: string): void {
    ctx.append('Set-Cookie', serializeCookie(this.name, token, this.maxAgeSeconds, this.config.environment));
  }

  clear(ctx: Context): void {
    ctx.append('Set-Cookie', serializeCookie(this.name, '', 0, this.config.environment));
  }
}

/** Carries a sign-in from its first factor to its second (5 minutes). */
export class MfaChallengeCookie extends ChallengeCookie {
  constructor(config: Pick<AppConfig, 'environment'>) {
    super(MFA_CHALLENGE_COOKIE, CHALLENGE_TTL_SECONDS, config);
  }
}

/** Binds a passkey sign-in's challenge to the browser that asked for it (5 minutes). */
export class PasskeyChallengeCookie extends ChallengeCookie {
  constructor(config: Pick<AppConfig, 'environment'>) {
    super(PASSKEY_CHALLENGE_COOKIE, PASSKEY_CHALLENGE_TTL_SECONDS, config);
  }
}

