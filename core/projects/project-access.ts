import type { Caller } from '../accounts/caller';
import { satisfies } from '../accounts/role';
import { DomainError } from '../shared/domain-error';

/**
 * The route guard already refuses `readonly` callers on writes; the use cases check again so a
 * future driver (CLI, job, another route) cannot forget it.
 */
export function assertMayWriteProjects(caller: Caller): void {
  if (!satisfies(caller.role, 'member')) {
    throw new DomainError('ACCESS_DENIED', 'Your role does not allow this action', { required_role: 'member' });
  }
}
