import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { HttpError } from '../http-error';

/** Request bodies over 1 MiB answer 413, whatever their content type. */
export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new HttpError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');

/**
 * Refuses a declared body over the limit before anything reads it, for every content type
 * (the JSON parser enforces the limit itself on chunked bodies, which carry no length).
 */
export function assertBodySize(ctx: Context): void {
  if ((ctx.request.length ?? 0) > MAX_BODY_BYTES) throw tooLarge();
}

/**
 * How much of a body the answer did not need is read and thrown away before the answer goes
 * out, and for how long at most: beyond either, the answer goes out with `Connection: close`.
 */
export const DRAIN_LIMIT_BYTES = 8 * MAX_BODY_BYTES;
export const DRAIN_LIMIT_MS = 5_000;

/**
 * Makes sure a client reads the answer to a request whose body was not (or not all) read: a 413
 * for a chunked body over the limit, a 401, 404 or 405 answered before the body. A client still
 * sending when the server closes the connection gets a broken pipe (EPIPE, ECONNRESET) instead
 * of the answer, and a client reusing a keep-alive connection whose unread body bytes are still
 * on the socket gets its next request parsed out of them. So the rest of the body is read and
 * discarded first, up to DRAIN_LIMIT_BYTES and DRAIN_LIMIT_MS; then the answer goes out and the
 * connection stays usable. A body declared larger than that, or one still coming when a bound is
 * reached, is discarded while the answer goes out with `Connection: close`.
 */
export async function disposeUnreadBody(ctx: Context): Promise<void> {
  const req = ctx.req;
  if (req.complete) return;
  const declared = ctx.request.length;
  const whole = declared === undefined || declared <= DRAIN_LIMIT_BYTES ? await discardRest(req, DRAIN_LIMIT_BYTES, DRAIN_LIMIT_MS) : false;
  if (whole) return;
  ctx.set('Connection', 'close');
  req.resume();
}

/** Reads and drops what is left of `req`; true once it has all arrived, false at a bound (bytes or time) first. */
function discardRest(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<boolean> {
  // A parser that gave up (too large, corrupt encoding) may have left the body piped into an inflater.
  req.unpipe();
  return new Promise((resolve) => {
    let read = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), maxMs);
    req.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    req.resume();
  });
}

/** Whether the request's headers announce a body: without one there is nothing to dispose of, whatever the answer. */
export function hasBody(ctx: Context): boolean {
  return (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
}

/**
 * Whether the request carries no body bytes at all. A declared length says so at once; a
 * chunked body is read up to its first bytes, which are put back for whoever reads it next.
 */
export function bodyIsEmpty(ctx: Context): Promise<boolean> {
  const req = ctx.req;
  if (!hasBody(ctx) || req.readableEnded) return Promise.resolve(true);
  if (ctx.request.length !== undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (empty: boolean) => {
      req.off('readable', onReadable).off('end', onEnd).off('close', onEnd).off('error', onEnd);
      resolve(empty);
    };
    const onReadable = () => {
      const chunk = req.read() as Buffer | null;
      if (chunk === null || chunk.length === 0) return;
      req.unshift(chunk);
      finish(false);
    };
    const onEnd = () => finish(true);
    req.on('readable', onReadable).once('end', onEnd).once('close', onEnd).once('error', onEnd);
  });
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
