import * as v from 'valibot';
import type { Context } from 'koa';
import { integerParam } from './schemas/integer-param.schema';

/** The largest page a client may ask for. */
export const MAX_PAGE = 1000;

/** `limit` and `cursor`, the same on every list. */
export function pageQuery(items: string) {
  return v.object({
    /** Without it every item is returned. */
    limit: v.optional(integerParam(1, MAX_PAGE, `At most this many ${items}; without it, all of them`)),
    /** Opaque: the value from the previous page's `Link` header. */
    cursor: v.optional(
      v.pipe(
        v.string('Must be a string'),
        v.maxLength(200, 'Invalid cursor'),
        v.description("Opaque: where the previous page ended, as given in its `Link` header's next URL"),
      ),
    ),
  });
}

/** The `Link` header a list response documents. */
export const NEXT_LINK_HEADER = {
  Link: 'Sent while more remain, with `limit` only: `<…?limit=N&cursor=…>; rel="next"`, the next page\'s URL to follow as it is',
};

/** Sets `Link: <next page>; rel="next"` when a paged list has more (never without `limit`), keeping the list's `filters`. */
export function linkNextPage(
  ctx: Context,
  baseApiUrl: string,
  path: string,
  limit: number | undefined,
  nextCursor: string | null,
  filters: Record<string, string> = {},
): void {
  if (nextCursor === null || limit === undefined) return;
  const kept = Object.entries(filters).map(([name, value]) => `&${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('');
  ctx.set('Link', `<${baseApiUrl}${path}?limit=${limit}&cursor=${encodeURIComponent(nextCursor)}${kept}>; rel="next"`);
}
