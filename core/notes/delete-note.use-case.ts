import type { UserCaller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import { noteOwner } from './note-access';
import type { NotesDeps } from './notes-deps';

export class DeleteNote {
  constructor(private readonly deps: Pick<NotesDeps, 'notes'>) {}

  /** Frees a `max_notes` slot. Deleting a missing note (or another user's) is RESOURCE_NOT_FOUND. */
  async execute(caller: UserCaller, input: { id: number }): Promise<void> {
    if (!(await this.deps.notes.delete(noteOwner(caller), input.id))) throw resourceNotFound('note', input.id);
  }
}
