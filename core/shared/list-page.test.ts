import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from './domain-error';
import { applyNewestFirstWindow, decodeListCursor, encodeListCursor, MAX_CURSOR_ID, newestFirst } from './list-page';

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const AT = '2026-11-21T10:00:00.000Z';
const refused = expect.objectContaining({ code: 'VALIDATION_ERROR', details: { cursor: 'Invalid cursor' } });

/** Every position a list can hold: any millisecond of years 0000 to 9999, any id from 1 to 2^53 - 1. */
const position = fc.record({
  createdAt: fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
  id: fc.oneof(fc.integer({ min: 1, max: 2 ** 31 + 10 }), fc.integer({ min: 2 ** 31 - 10, max: MAX_CURSOR_ID }), fc.constantFrom(1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, MAX_CURSOR_ID)),
});

describe('list cursor', () => {
  it('round-trips a position and is URL-safe', () => {
    const position = { createdAt: new Date('2026-11-21T10:00:00.123Z'), id: 2_147_483_647 };
    const cursor = encodeListCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor)).toEqual(position);
  });

  it.each([
    ['2^31 - 1 (int4 max)', 2 ** 31 - 1],
    ['2^31 (past int4: an audit_event id after 2.1 billion events)', 2 ** 31],
    ['2^53 - 1 (the largest id a number holds exactly)', MAX_CURSOR_ID],
  ])('round-trips id %s', (_label, id) => {
    const at = { createdAt: new Date(AT), id };
    expect(decodeListCursor(encodeListCursor(at))).toEqual(at);
    expect(decodeListCursor(b64(`${AT}|${id}`))).toEqual(at);
  });

  it('round-trips every position a list can hold, and its cursor is the only spelling accepted for it', () => {
    fc.assert(
      fc.property(position, (at) => {
        const cursor = encodeListCursor(at);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeListCursor(cursor)).toEqual(at);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses every other string as VALIDATION_ERROR on cursor, never with another error', () => {
    // Not fc.string's 'binary' unit: building it takes seconds.
    const odd = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }), fc.constantFrom('\uD800', '\uDFFF', '\u0000', '\uFFFD', '０'));
    const texts = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/. '), maxLength: 80 }),
      // Random bytes, spelled as a cursor is: the decoder's parse sees them whole.
      fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
      // Near misses: a real cursor's text with one character changed, dropped or added.
      fc
        .tuple(position, fc.nat(), fc.constantFrom('drop', 'change', 'add'), odd)
        .map(([at, where, how, other]) => {
          const text = `${at.createdAt.toISOString()}|${at.id}`;
          const i = where % text.length;
          return b64(text.slice(0, i) + (how === 'drop' ? '' : other) + text.slice(how === 'add' ? i : i + 1));
        }),
    );
    fc.assert(
      fc.property(texts, (cursor) => {
        let decoded;
        try {
          decoded = decodeListCursor(cursor);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect(error).toEqual(refused);
          return;
        }
        // Accepted only when it is exactly the cursor of the position it names.
        expect(encodeListCursor(decoded)).toBe(cursor);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['id 2^53 (a number would round it)', `${AT}|9007199254740992`],
    ['id 2^53 + 1 (a number would read it as 2^53)', `${AT}|9007199254740993`],
    ['a 17-digit id', `${AT}|10000000000000000`],
    ['a negative id', `${AT}|-1`],
    ['a signed id', `${AT}|+1`],
    ['a leading zero', `${AT}|01`],
    ['a fractional id', `${AT}|1.5`],
    ['an exponent', `${AT}|1e3`],
    ['a non-numeric id', `${AT}|abc`],
    ['a hexadecimal id', `${AT}|0x10`],
  ])('refuses %s as VALIDATION_ERROR on cursor', (_label, text) => {
    expect(() => decodeListCursor(b64(text))).toThrow(refused);
  });

  it('will not encode a position it could not decode: a fault, not a next page the API would refuse', () => {
    for (const id of [0, -1, 1.5, MAX_CURSOR_ID + 1, Number.NaN]) {
      expect(() => encodeListCursor({ createdAt: new Date(AT), id })).toThrow(/cannot be a cursor/);
    }
    expect(() => encodeListCursor({ createdAt: new Date('+010000-01-01T00:00:00.000Z'), id: 1 })).toThrow(/cannot be a cursor/);
  });

  it('refuses a cursor that decodes to a position but is not spelled as encodeListCursor spells it', () => {
    // 26 bytes: the last of the 35 characters carries 4 bits of the text and 2 unused ones.
    const cursor = encodeListCursor({ createdAt: new Date(AT), id: 7 });
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const strayBit = cursor.slice(0, -1) + ALPHABET[ALPHABET.indexOf(cursor.at(-1)!) ^ 1]!;
    expect(Buffer.from(strayBit, 'base64url').toString('utf8')).toBe(`${AT}|7`);
    // Characters Node's decoder would skip, padding, and a final character with a stray low bit set.
    for (const spelling of [`${cursor}=`, `${cursor.slice(0, 5)}.${cursor.slice(5)}`, ` ${cursor}`, strayBit]) {
      expect(() => decodeListCursor(spelling), spelling).toThrow(refused);
    }
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['garbage', b64('hello')],
    ['no id', b64('2026-11-21T10:00:00.000Z|')],
    ['id zero', b64('2026-11-21T10:00:00.000Z|0')],
    ['impossible date', b64('2026-02-30T10:00:00.000Z|1')],
    ['no milliseconds', b64('2026-11-21T10:00:00Z|1')],
    ['trailing text', b64('2026-11-21T10:00:00.000Z|1|x')],
  ])('rejects %s as VALIDATION_ERROR on cursor', (_label, cursor) => {
    expect(() => decodeListCursor(cursor)).toThrow(refused);
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
