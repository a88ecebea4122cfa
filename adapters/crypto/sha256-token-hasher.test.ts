import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sha256TokenHasher } from './sha256-token-hasher';

describe('Sha256TokenHasher', () => {
  const hasher = new Sha256TokenHasher();

  it('gives the SHA-256 of the token in lower-case hex (the published test vector for "abc")', () => {
    expect(hasher.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the UTF-8 bytes of any string, as the stored hashes were made (createHash with utf8)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (token) => {
        expect(hasher.hash(token)).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
      }),
    );
  });
});
