import { DomainError } from '../shared/domain-error';
import type { Caller } from './caller';
import { satisfies, type RoleName } from './role';

export const accessDenied = (message: string, details: Record<string, unknown> = {}) => new DomainError('ACCESS_DENIED', message, details);

/**
 * The one role check of every use case. The route guard checks the same role first; the use case
 * checks again so another driver (CLI, job) cannot forget it.
 */
export function requireRole(caller: Caller, role: RoleName): void {
  if (!satisfies(caller.role, role)) throw accessDenied('Your role does not allow this action', { required_role: role });
}
