import { describe, expect, it } from 'vitest';
import type { Caller } from './caller';
import { requireRole } from './require-role';
import { ROLES, type RoleName } from './role';

const callerWith = (role: RoleName): Caller => ({ userId: 1, organizationId: 1, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });

describe('requireRole', () => {
  it('throws ACCESS_DENIED naming the required role when the caller ranks below it', () => {
    expect(() => requireRole(callerWith('member'), 'org_admin')).toThrow(
      expect.objectContaining({ code: 'ACCESS_DENIED', details: { required_role: 'org_admin' } }),
    );
  });

  it('lets through every role at or above the required one', () => {
    for (const [index, role] of ROLES.entries()) {
      for (const required of ROLES.slice(0, index + 1)) expect(() => requireRole(callerWith(role), required)).not.toThrow();
    }
  });
});
