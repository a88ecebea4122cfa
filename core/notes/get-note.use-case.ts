import type { UserCaller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Note } from './note';
import { noteOwner } from './note-access';
import type { NotesDeps } from './notes-deps';

export class GetNote {
  constructor(private readonly deps: Pick<NotesDeps, 'notes'>) {}

  /** Another user's note, in this organization or another, is answered exactly like a missing one. */
  async execute(caller: UserCaller, input: { id: number }): Promise<Note> {
    const note = await this.deps.notes.findById(noteOwner(caller), input.id);
    if (!note) throw resourceNotFound('note', input.id);
    return note;
  }
}
