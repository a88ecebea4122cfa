import { DomainError } from './domain-error';

/**
 * Keyset paging, shared by every list of the API. A list has one total order on
 * (`createdAt`, `id`); a page is "at most `limit` items after this position", so later pages stay
 * put while rows are inserted or deleted elsewhere, and no page costs an OFFSET scan.
 */

/** A position in a list: the last item already seen. */
export interface ListPosition {
  createdAt: Date;
  id: number;
}

/** What a repository is asked for: at most `limit` items (all when omitted) strictly after `after`. */
export interface ListWindow {
  limit?: number;
  after?: ListPosition;
}

/**
 * What a list use case is asked for: at most `limit` items (already validated), after `cursor` as
 * the client sent it back. Always a limit: a list is read a page at a time, never whole, so its
 * cost stays flat in the list's length (a driver that sends every item walks the pages).
 */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Where the next page starts; null when nothing remains. */
  nextCursor: string | null;
}

/** The cursor is opaque to clients: base64url of `<createdAt ISO>|<id>`, naming the last item of a page. */
export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** Throws VALIDATION_ERROR for anything `encodeListCursor` did not produce. */
export function decodeListCursor(cursor: string): ListPosition {
  // Node's base64url decoder silently skips characters outside the alphabet: check it first.
  const position = /^[A-Za-z0-9_-]+$/.test(cursor) ? parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!position) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { cursor: 'Invalid cursor' });
  return position;
}

const DECODED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([1-9]\d{0,9})$/;
const MAX_ID = 2_147_483_647;

function parse(text: string): ListPosition | null {
  const match = DECODED.exec(text);
  if (!match) return null;
  const createdAt = new Date(match[1]!);
  const id = Number(match[2]);
  // The round trip rejects dates such as 2026-02-30, which Date would silently roll over.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== match[1] || id > MAX_ID) return null;
  return { createdAt, id };
}

/**
 * Reads one page through `read`, asking for one item more than the page holds: that extra item
 * tells whether another page exists without a count query.
 */
export async function readPage<T extends ListPosition>(request: PageRequest, read: (window: ListWindow) => Promise<T[]>): Promise<Page<T>> {
  const after = request.cursor === undefined ? undefined : decodeListCursor(request.cursor);
  const rows = await read({ limit: request.limit + 1, ...(after ? { after } : {}) });
  if (rows.length <= request.limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, request.limit);
  return { items, nextCursor: encodeListCursor(items[items.length - 1]!) };
}

/** Whether `item` comes strictly after `position` in (createdAt, id) order: the in-memory adapters' keyset test. */
export function isAfter(item: ListPosition, position: ListPosition | undefined): boolean {
  if (!position) return true;
  const delta = item.createdAt.getTime() - position.createdAt.getTime();
  return delta > 0 || (delta === 0 && item.id > position.id);
}

/** Ascending (createdAt, id): the order of every list but the newest-first ones (projects, notes). */
export const byPosition = (a: ListPosition, b: ListPosition): number => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;

/** Descending (createdAt, id): the order of projects and notes. */
export const newestFirst = (a: ListPosition, b: ListPosition): number => byPosition(b, a);

/** The in-memory adapters' windowing of a list already sorted `byPosition`. */
export function applyWindow<T extends ListPosition>(sorted: T[], window: ListWindow = {}): T[] {
  const after = sorted.filter((item) => isAfter(item, window.after));
  return window.limit === undefined ? after : after.slice(0, window.limit);
}

/** The in-memory adapters' newest-first list: the rows `keep` accepts, sorted `newestFirst`, cut to `window`. */
export function newestFirstWindow<T extends ListPosition>(rows: Iterable<T>, keep: (row: T) => boolean, window?: ListWindow): T[] {
  return applyNewestFirstWindow([...rows].filter(keep).sort(newestFirst), window);
}

/** `applyWindow` for a list already sorted `newestFirst`, where "after a position" means older than it. */
export function applyNewestFirstWindow<T extends ListPosition>(sorted: T[], window: ListWindow = {}): T[] {
  const { after, limit } = window;
  const older = after ? sorted.filter((item) => isAfter(after, item)) : sorted;
  return limit === undefined ? older : older.slice(0, limit);
}
