import type { UserCaller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Note } from './note';
import { noteOwner } from './note-access';
import type { NotePatch } from './note-repository.port';
import type { NotesDeps } from './notes-deps';

/** Already validated. A field that is omitted or null keeps the stored value. */
export interface UpdateNoteInput {
  id: number;
  title?: string | null;
  content?: string | null;
}

export class UpdateNote {
  constructor(private readonly deps: Pick<NotesDeps, 'notes' | 'clock'>) {}

  /** Every update sets `updatedAt`, even one that changes no field. */
  async execute(caller: UserCaller, input: UpdateNoteInput): Promise<Note> {
    const patch: NotePatch = { updatedAt: this.deps.clock.now() };
    if (input.title != null) patch.title = input.title;
    if (input.content != null) patch.content = input.content;
    const note = await this.deps.notes.update(noteOwner(caller), input.id, patch);
    if (!note) throw resourceNotFound('note', input.id);
    return note;
  }
}
