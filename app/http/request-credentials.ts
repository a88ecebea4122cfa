import type { Context } from 'koa';
import type { ApiKeyCaller, Caller, UserCaller } from '../../core/access/caller';
import { HttpError } from './http-error';

const BEARER = /^Bearer +(\S+) *$/i;

/** The key of `Authorization: Bearer <key>`, if the request carries one; other schemes are not ours and are ignored. */
export function bearerKey(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  return header === '' ? undefined : BEARER.exec(header)?.[1];
}

export interface RequestCredentials {
  /** The caller of the request's session cookie; UNAUTHORIZED without one. */
  session(ctx: Context): Promise<UserCaller>;
  /** Whether the request carries the session cookie (the deployment's name only: other cookies do not count). */
  hasSessionCookie(ctx: Context): boolean;
  /** The caller of an organization API key; UNAUTHORIZED for any key that is not live. */
  apiKey(key: string): Promise<ApiKeyCaller>;
}

/**
 * The one authentication of the router: a bearer key when the request carries one, else the
 * session cookie. Both at once is refused (MALFORMED_REQUEST): which of two identities a request
 * acts as must never depend on an order of precedence the client did not choose.
 */
export function authenticateRequest(credentials: RequestCredentials): (ctx: Context) => Promise<Caller> {
  return async (ctx) => {
    const key = bearerKey(ctx);
    if (key === undefined) return credentials.session(ctx);
    if (credentials.hasSessionCookie(ctx)) {
      throw new HttpError('MALFORMED_REQUEST', 'Send either the session cookie or an API key, not both', { reason: 'session_and_api_key' });
    }
    return credentials.apiKey(key);
  };
}
