import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { precedenceOf, ROLES, satisfies } from './role';

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
