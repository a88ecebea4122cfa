import { describe, expect, it } from 'vitest';
import { applyNewestFirstWindow, decodeListCursor, encodeListCursor, newestFirst } from './list-page';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

describe('list cursor', () => {
  it('round-trips a position and is URL-safe', () => {
    const position = { createdAt: new Date('2026-11-21T10:00:00.123Z'), id: 2_147_483_647 };
    const cursor = encodeListCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor)).toEqual(position);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['garbage', b64('hello')],
    ['no id', b64('2026-11-21T10:00:00.000Z|')],
    ['id zero', b64('2026-11-21T10:00:00.000Z|0')],
    ['id beyond int4', b64('2026-11-21T10:00:00.000Z|2147483648')],
    ['impossible date', b64('2026-02-30T10:00:00.000Z|1')],
    ['no milliseconds', b64('2026-11-21T10:00:00Z|1')],
    ['trailing text', b64('2026-11-21T10:00:00.000Z|1|x')],
  ])('rejects %s as VALIDATION_ERROR on query.cursor', (_label, cursor) => {
    expect(() => decodeListCursor(cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: { cursor: 'Invalid cursor' } }));
  });
});

describe('newest-first window', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 10, minute));
  // Newest first, a tie on createdAt broken by the higher id first.
  const sorted = [
    { createdAt: at(2), id: 1 },
    { createdAt: at(1), id: 5 },
    { createdAt: at(1), id: 3 },
    { createdAt: at(0), id: 9 },
  ];

  it('sorts by createdAt then id, both descending', () => {
    expect([sorted[3]!, sorted[2]!, sorted[0]!, sorted[1]!].sort(newestFirst)).toEqual(sorted);
  });

  it('keeps at most `limit` items strictly older than `after`', () => {
    expect(applyNewestFirstWindow(sorted)).toEqual(sorted);
    expect(applyNewestFirstWindow(sorted, { limit: 2 })).toEqual(sorted.slice(0, 2));
    expect(applyNewestFirstWindow(sorted, { after: sorted[1]! })).toEqual(sorted.slice(2));
    expect(applyNewestFirstWindow(sorted, { after: sorted[0]!, limit: 1 })).toEqual([sorted[1]]);
    expect(applyNewestFirstWindow(sorted, { after: sorted[3]! })).toEqual([]);
  });
});
