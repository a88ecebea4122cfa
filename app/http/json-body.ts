import type { Context } from 'koa';

const JSON_TYPE = 'application/json; charset=utf-8';
const JSON_MEDIA = /\bjson\b/i;

/**
 * Sets a JSON answer's body as its text, with the Content-Type Koa would give it. Koa, handed an
 * object, works the type out per request (a MIME lookup of `json`, the Content-Type read back and
 * parsed, Content-Length removed then set again) and stringifies it only when it responds; handed
 * the text with the type already set, it only counts the bytes. The answer is the same bytes and
 * headers: `application/json; charset=utf-8` unless the route already set a JSON type of its own,
 * `Content-Length` of the text (also for HEAD). Anything that is not a plain object or array (a
 * stream, a string, a Buffer, null) goes to Koa as it is.
 *
 * The text is handed over encoded, as a Buffer: Koa counts a string's UTF-8 bytes for
 * `Content-Length`, then Node's `res.end` counts them again (it only skips that for a Buffer),
 * and the encoding itself happens once either way.
 */
export function setBody(ctx: Context, body: unknown): void {
  if (body === null || typeof body !== 'object' || !(Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype)) {
    ctx.body = body;
    return;
  }
  const res = ctx.res;
  const current = res.getHeader('Content-Type');
  if (typeof current !== 'string' || !JSON_MEDIA.test(current)) res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = Buffer.from(JSON.stringify(body), 'utf8');
}
