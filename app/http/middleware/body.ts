import type { Context, Middleware } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { HttpError } from '../http-error';

/** Request bodies over 1 MiB answer 413, whatever their content type. */
export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new HttpError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');

/**
 * Refuses a declared body over the limit before anything reads it, for every content type
 * (the JSON parser enforces the limit itself on chunked bodies, which carry no length).
 */
export function bodySizeLimit(): Middleware {
  // Plain, not async: one promise fewer per request (a throw here still reaches the error handler as a rejection).
  return (ctx, next) => {
    if ((ctx.request.length ?? 0) > MAX_BODY_BYTES) throw tooLarge();
    return next();
  };
}

/** A declared body up to this size that was answered before being read is read and thrown away. */
const DRAIN_LIMIT_BYTES = 4 * MAX_BODY_BYTES;

/**
 * Keeps keep-alive connections usable after an early answer (413, 401, 404, 405… before the body
 * was read). The unread rest of the body still arrives on the socket; if nobody reads it, the
 * connection's next request is parsed out of body bytes and the client sees ECONNRESET. So: a
 * declared body up to DRAIN_LIMIT_BYTES is read and discarded (the connection stays alive); a
 * larger or chunked one (whose end we cannot bound) is also discarded while the answer goes out,
 * but the answer says `Connection: close`, so the client opens a fresh connection for its next
 * request instead of reusing this one.
 */
export function unreadBodyDisposal(): Middleware {
  return (ctx, next) => {
    // Whether a request has a body is in its headers: without one there is nothing to dispose of, whatever the answer.
    if (!hasBody(ctx)) return next();
    return disposeAfter(ctx, next);
  };
}

async function disposeAfter(ctx: Context, next: () => Promise<unknown>): Promise<void> {
  await next();
  const req = ctx.req;
  if (req.complete) return;
  const declared = ctx.request.length;
  if (declared === undefined || declared > DRAIN_LIMIT_BYTES) ctx.set('Connection', 'close');
  req.resume();
}

function hasBody(ctx: Context): boolean {
  return (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
}

/**
 * Reads a JSON body (and keeps the raw text on `ctx.request.rawBody`). Called by the router only
 * for a matched route that takes a body, after rate limiting and authentication, so an unknown
 * route or an anonymous caller never costs a parse. Any JSON value parses; whether it has the
 * right shape is the schema's job (422). Every parser failure is the client's: a body that is
 * not JSON, a corrupt gzip/deflate/br encoding or an unsupported charset is 400, too big is 413.
 */
export function jsonBodyReader(): (ctx: Context) => Promise<void> {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: MAX_BODY_BYTES, encoding: 'utf-8', jsonStrict: false });
  return async (ctx) => {
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      if ((error as { status?: unknown }).status === 413) throw tooLarge();
      throw new HttpError('MALFORMED_REQUEST', 'The request body is not valid JSON');
    }
  };
}
