import type { UserCaller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { NoteOwner } from './note-repository.port';

/**
 * Notes are a `member` feature, reads included. The route guard refuses `readonly` callers too;
 * checking again here keeps a future driver (CLI, job) from forgetting it.
 */
export function noteOwner(caller: UserCaller): NoteOwner {
  requireRole(caller, 'member');
  return { organizationId: caller.organizationId, userId: caller.userId };
}
