import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidPassword } from './password-policy';

describe('password policy', () => {
  it('accepts exactly the strings of 8..64 Unicode code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 0, maxLength: 80 }), (password) => {
        const codePoints = [...password].length;
        return isValidPassword(password) === (codePoints >= 8 && codePoints <= 64);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts an astral character once, not as two UTF-16 units', () => {
    expect(isValidPassword('😀'.repeat(8))).toBe(true);
    expect(isValidPassword('😀'.repeat(64))).toBe(true);
    expect(isValidPassword('😀'.repeat(65))).toBe(false);
    expect(isValidPassword('😀'.repeat(7))).toBe(false);
  });
});
