import { describe, expect, it } from 'vitest';
import { ROLES } from '../access/role';
import { assertKeepsAdministrator, assertMayGrant, isAdministrator, leavesNoAdministrator, mayGrant, mayManage } from './membership-rules';

describe('membership rules', () => {
  it('counts org_admin and sys_admin as administrators', () => {
    expect(ROLES.filter(isAdministrator)).toEqual(['org_admin', 'sys_admin']);
  });

  it('lets each role grant exactly the roles at or below its own, and only a sys_admin grant sys_admin', () => {
    const grantable = Object.fromEntries(ROLES.map((granter) => [granter, ROLES.filter((role) => mayGrant(granter, role))]));

    expect(grantable).toEqual({
      readonly: ['readonly'],
      member: ['readonly', 'member'],
      org_admin: ['readonly', 'member', 'org_admin'],
      sys_admin: ['readonly', 'member', 'org_admin', 'sys_admin'],
    });
  });

  it('lets nobody manage a member ranked above them', () => {
    expect(mayManage('org_admin', 'org_admin')).toBe(true);
    expect(mayManage('org_admin', 'sys_admin')).toBe(false);
    expect(mayManage('sys_admin', 'sys_admin')).toBe(true);
  });

  it.each([
    ['org_admin', 'member', 1, true],
    ['org_admin', null, 1, true],
    ['sys_admin', 'readonly', 1, true],
    ['org_admin', 'member', 2, false],
    ['org_admin', 'sys_admin', 1, false],
    ['org_admin', 'org_admin', 1, false],
    ['member', null, 1, false],
    ['member', null, 0, false],
  ] as const)('moving %s to %s with %i administrator(s) leaves none: %s', (from, to, administrators, expected) => {
    expect(leavesNoAdministrator(from, to, administrators)).toBe(expected);
  });

  it('throws the stable codes', () => {
    expect(() => assertMayGrant('org_admin', 'sys_admin')).toThrow(expect.objectContaining({ code: 'ACCESS_DENIED' }));
    expect(() => assertKeepsAdministrator('org_admin', 'member', 1)).toThrow(expect.objectContaining({ code: 'LAST_ORG_ADMIN' }));
  });
});
