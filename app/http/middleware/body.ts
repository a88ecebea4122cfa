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
  return async (ctx, next) => {
    if ((ctx.request.length ?? 0) > MAX_BODY_BYTES) throw tooLarge();
    await next();
  };
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
