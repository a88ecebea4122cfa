import type { Caller } from '../accounts/caller';
import { satisfies } from '../accounts/role';
import { DomainError } from '../shared/domain-error';
import type { NoteOwner } from './note-repository.port';

/**
 * Notes are a `member` feature, reads included. The route guard refuses `readonly` callers too;
 * checking again here keeps a future driver (CLI, job) from forgetting it.
 */
export function noteOwner(caller: Caller): NoteOwner {
  if (!satisfies(caller.role, 'member')) {
    throw new DomainError('ACCESS_DENIED', 'Your role does not allow this action', { required_role: 'member' });
  }
  return { organizationId: caller.organizationId, userId: caller.userId };
}
