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

/**
 * The largest id a cursor names: ids are positive integers a JavaScript number holds exactly
 * (every int8 serial stays far below 2^53), so a list pages past int4's 2^31 - 1 rows.
 */
export const MAX_CURSOR_ID = Number.MAX_SAFE_INTEGER;

/** Whether `id` is one a cursor may name: a whole number from 1 to MAX_CURSOR_ID. */
export const isCursorId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1;

/**
 * The cursor is opaque to clients: base64url of `<createdAt ISO>|<id>`, naming the last item of a
 * page. Throws (a fault, not the client's) for a position `decodeListCursor` would refuse: a page
 * must never link to a next page the API then answers with 422.
 */
export function encodeListCursor(position: ListPosition): string {
  const text = `${position.createdAt.toISOString()}|${position.id}`;
  if (parse(text) === null) throw new Error(`list position ${text} cannot be a cursor`);
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** Throws VALIDATION_ERROR for anything `encodeListCursor` did not produce. */
export function decodeListCursor(cursor: string): ListPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Node's base64url decoder skips characters outside the alphabet, ignores stray trailing bits
  // and replaces invalid UTF-8: only the one spelling encodeListCursor gives is a cursor.
  const position = Buffer.from(text, 'utf8').toString('base64url') === cursor ? parse(text) : null;
  if (!position) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { cursor: 'Invalid cursor' });
  return position;
}

// At most 16 digits (MAX_CURSOR_ID has 16), no leading zero, no sign: one spelling per id.
const DECODED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([1-9]\d{0,15})$/;

function parse(text: string): ListPosition | null {
  const match = DECODED.exec(text);
  if (!match) return null;
  const createdAt = new Date(match[1]!);
  const id = Number(match[2]);
  // The round trip rejects dates such as 2026-02-30, which Date would silently roll over;
  // isCursorId rejects 16-digit ids above 2^53 - 1, which a number would silently round.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== match[1] || !isCursorId(id)) return null;
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
