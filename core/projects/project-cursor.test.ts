import { describe, expect, it } from 'vitest';
import { decodeProjectCursor, encodeProjectCursor } from './project-cursor';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

describe('project cursor', () => {
  it('round-trips a position and is URL-safe', () => {
    const position = { createdAt: new Date('2026-11-21T10:00:00.123Z'), id: 2_147_483_647 };
    const cursor = encodeProjectCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeProjectCursor(cursor)).toEqual(position);
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
    expect(() => decodeProjectCursor(cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: { cursor: 'Invalid cursor' } }));
  });
});
