/** Roles ordered by precedence; a caller satisfies a requirement when precedence is ≥. */
export const ROLES = ['readonly', 'member', 'org_admin', 'sys_admin'] as const;

export type RoleName = (typeof ROLES)[number];

export const precedenceOf = (role: RoleName): number => ROLES.indexOf(role);

export const satisfies = (held: RoleName, required: RoleName): boolean => precedenceOf(held) >= precedenceOf(required);

export const isRoleName = (value: string): value is RoleName => (ROLES as readonly string[]).includes(value);

export const roleView = (role: RoleName) => ({ name: role, precedence: precedenceOf(role) });
