import type { UserCaller } from '../access/caller';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { Note } from './note';
import { noteOwner } from './note-access';
import type { NotesDeps } from './notes-deps';

/** The caller's own notes, newest first, one page at a time. */
export class ListNotes {
  constructor(private readonly deps: Pick<NotesDeps, 'notes'>) {}

  async execute(caller: UserCaller, input: PageRequest): Promise<Page<Note>> {
    const owner = noteOwner(caller);
    return readPage(input, (window) => this.deps.notes.list(owner, window));
  }
}
