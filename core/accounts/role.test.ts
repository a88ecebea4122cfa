import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { precedenceOf, ROLES, satisfies } from './role';
import { isValidPassword } from './password-policy';

const role = fc.constantFrom(...ROLES);

describe('role precedence', () => {
  it('orders readonly < member < org_admin < sys_admin with precedences 0..3', () => {
    expect(ROLES.map(precedenceOf)).toEqual([0, 1, 2, 3]);
  });

  it('a role satisfies a requirement iff its precedence is ≥ the required one (all pairs)', () => {
    fc.assert(fc.property(role, role, (held, required) => satisfies(held, required) === precedenceOf(held) >= precedenceOf(required)));
  });

  it('is a total preorder: reflexive and transitive', () => {
    fc.assert(fc.property(role, role, role, (a, b, c) => satisfies(a, a) && (!(satisfies(a, b) && satisfies(b, c)) || satisfies(a, c))));
  });
});

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
