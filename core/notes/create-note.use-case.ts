import type { UserCaller } from '../access/caller';
import type { Note } from './note';
import { noteOwner } from './note-access';
import type { NotesDeps } from './notes-deps';

/** Already validated: `title` trimmed, 1..200 characters; `content` at most 100,000. */
export interface CreateNoteInput {
  title: string;
  content?: string;
}

/** Creates a note within the organization's `max_notes`, checked and inserted atomically. */
export class CreateNote {
  constructor(private readonly deps: Pick<NotesDeps, 'notes' | 'quota' | 'clock'>) {}

  async execute(caller: UserCaller, input: CreateNoteInput): Promise<Note> {
    const owner = noteOwner(caller);
    return this.deps.quota.take(owner.organizationId, 'max_notes', (limit) =>
      this.deps.notes.createWithinLimit(owner, { title: input.title, content: input.content ?? '', createdAt: this.deps.clock.now() }, limit),
    );
  }
}
