import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Page, PageRequest } from '../../core/shared/list-page';
import { linkNextPage } from './paging';

/** Rows read per query while a list is sent whole, unless the list names its own batch. */
export const STREAM_BATCH = 500;

/** Characters of JSON gathered before they are written to the response while a list streams. */
const CHUNK_CHARACTERS = 64 * 1024;

/** One list of the API: how to read a page of it and how an item looks on the wire. */
export interface ListSource<T> {
  /** The list use case: at most `request.limit` items after `request.cursor`, and where the next page starts. */
  page(request: PageRequest): Promise<Page<T>>;
  toResponse(item: T): unknown;
  /**
   * Items per query while the whole list is sent (default `STREAM_BATCH`). A list of large rows
   * names a smaller one, so a batch of its largest rows stays a few megabytes.
   */
  batch?: number;
}

/** Where a paged list lives, for its `Link` header. */
export interface ListLink {
  baseApiUrl: string;
  path: string;
  /** The list's own filters, repeated in the next page's URL so that page continues the same list. */
  query?: Record<string, string>;
}

/**
 * The body of `GET <list>`. With `limit`: that page, and `Link: <…>; rel="next"` while more
 * remain. Without: every item, streamed (`streamList`).
 */
export async function listBody<T>(ctx: Context, query: { limit?: number; cursor?: string }, source: ListSource<T>, link: ListLink): Promise<unknown> {
  if (query.limit === undefined) return streamList(ctx, source, query.cursor);
  const page = await source.page({ limit: query.limit, ...(query.cursor === undefined ? {} : { cursor: query.cursor }) });
  linkNextPage(ctx, link.baseApiUrl, link.path, query.limit, page.nextCursor, link.query);
  return page.items.map(source.toResponse);
}

/**
 * Every item of the list from `cursor` on (from the start without one), as one JSON array, without
 * ever holding the whole list: it reads a batch at a time by keyset and writes each batch before
 * reading the next, at the pace the client reads (the stream's back-pressure), so a request costs
 * the server one batch of rows whatever the list's length. Each batch is its own short query, not
 * a database cursor, so a slow client never holds a connection.
 *
 * A list that fits in one batch is sent as a plain body. A failure after the first byte cannot
 * become an error answer: the response is cut short, so a client sees a broken body, never a
 * truncated list that parses.
 */
export async function streamList<T>(ctx: Context, source: ListSource<T>, cursor?: string): Promise<unknown> {
  const limit = source.batch ?? STREAM_BATCH;
  const first = await source.page({ limit, ...(cursor === undefined ? {} : { cursor }) });
  if (first.nextCursor === null) return first.items.map(source.toResponse);
  async function* chunks(): AsyncGenerator<string> {
    let page = first;
    let chunk = '[';
    let separator = '';
    for (;;) {
      for (const item of page.items) {
        chunk += separator + JSON.stringify(source.toResponse(item));
        separator = ',';
        if (chunk.length >= CHUNK_CHARACTERS) {
          yield chunk;
          chunk = '';
        }
      }
      if (page.nextCursor === null) break;
      const next = page.nextCursor;
      page = { items: [], nextCursor: null }; // let the batch just written be collected while the next is read
      try {
        page = await source.page({ limit, cursor: next });
      } catch (error) {
        ctx.state.log?.error({ err: error }, `GET ${ctx.path} stream failed after the first batch: response cut short`);
        ctx.res.destroy();
        return;
      }
    }
    yield `${chunk}]`;
  }
  ctx.type = 'application/json; charset=utf-8';
  return Readable.from(chunks(), { objectMode: false });
}
