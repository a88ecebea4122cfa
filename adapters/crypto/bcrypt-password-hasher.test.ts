import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BcryptPasswordHasher } from './bcrypt-password-hasher';

// Cost 4 (the minimum) keeps each hash near a millisecond; the properties are about inputs, not cost.
const hasher = new BcryptPasswordHasher(4);
const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/** Unicode scalar values (no lone surrogates, which UTF-8 cannot carry). */
const codePoint = fc.oneof(fc.integer({ min: 0x20, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }));
const password = (min: number, max: number) =>
  fc.array(codePoint, { minLength: min, maxLength: max }).map((points) => String.fromCodePoint(...points));

/** Two passwords of 8..64 code points whose UTF-8 forms share their first 72 bytes (or more). */
const sharingA72BytePrefix = fc
  .tuple(
    fc.array(fc.integer({ min: 0x800, max: 0xd7ff }), { minLength: 24, maxLength: 40 }),
    password(1, 24),
    password(1, 24),
  )
  .filter(([, a, b]) => a !== b)
  .map(([prefix, a, b]) => {
    const shared = String.fromCodePoint(...prefix);
    return [shared + a, shared + b] as const;
  });

const distinctPasswords = fc.oneof(
  fc.tuple(password(8, 64), password(8, 64)).filter(([a, b]) => a !== b),
  sharingA72BytePrefix,
);

describe('BcryptPasswordHasher', () => {
  it('verifies a password against its own hash', async () => {
    await fc.assert(
      fc.asyncProperty(password(8, 64), async (p) => {
        expect(await hasher.verify(p, await hasher.hash(p))).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it("never verifies a password against another password's hash, even past bcrypt's 72 bytes", async () => {
    await fc.assert(
      fc.asyncProperty(distinctPasswords, async ([a, b]) => {
        const [hashA, hashB] = await Promise.all([hasher.hash(a), hasher.hash(b)]);
        expect(await hasher.verify(a, hashB)).toBe(false);
        expect(await hasher.verify(b, hashA)).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it('tells apart long passwords that differ only after byte 72', async () => {
    const prefix = '🔐'.repeat(18); // 72 bytes
    const [a, b] = [`${prefix}a`, `${prefix}b`];
    expect(utf8Length(prefix)).toBe(72);

    expect(await hasher.verify(b, await hasher.hash(a))).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [first, second] = await Promise.all([hasher.hash('correct horse'), hasher.hash('correct horse')]);

    expect(first).not.toBe(second);
    expect(first).toMatch(/^\$2b\$04\$/);
  });

  it('answers false for a null hash, after a comparison at the same cost', async () => {
    await expect(hasher.verify('any password', null)).resolves.toBe(false);
    await expect(hasher.verify('', null)).resolves.toBe(false);
  });

  it('answers false, without throwing, for a malformed stored hash', async () => {
    const valid = await hasher.hash('password123');
    const malformed = [
      '',
      'plain-text-password',
      '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
      valid.slice(0, -1),
      `${valid}x`,
      valid.replace('$04$', '$99$'),
      valid.replace('$2b$', '$2x$'),
      `$2b$04$${'!'.repeat(53)}`,
    ];

    for (const hash of malformed) await expect(hasher.verify('password123', hash)).resolves.toBe(false);
  });

  it('refuses a cost outside 4..15', () => {
    expect(() => new BcryptPasswordHasher(3)).toThrow(RangeError);
    expect(() => new BcryptPasswordHasher(16)).toThrow(RangeError);
    expect(() => new BcryptPasswordHasher(10.5)).toThrow(RangeError);
    expect(() => new BcryptPasswordHasher(15)).not.toThrow();
  });

  it('spends a comparison at its own cost on a hash made at a lower one, so old accounts answer no faster', async () => {
    const current = new BcryptPasswordHasher(5, 1);
    const oldHash = await hasher.hash('old password');
    const currentHash = await current.hash('new password');
    const compare = vi.spyOn(current as unknown as { compare(p: string, h: string): Promise<boolean> }, 'compare');
    try {
      expect(await current.verify('wrong password', oldHash)).toBe(false);
      expect(await current.verify('old password', oldHash)).toBe(true);
      const costs = compare.mock.calls.map(([, hash]) => hash.slice(4, 6));
      expect(costs.sort()).toEqual(['04', '04', '05', '05']);
      compare.mockClear();
      expect(await current.verify('wrong password', currentHash)).toBe(false);
      expect(compare.mock.calls.map(([, hash]) => hash.slice(4, 6))).toEqual(['05']);
    } finally {
      await current.close();
    }
  });
});
