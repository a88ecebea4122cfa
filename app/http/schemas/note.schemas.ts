import * as v from 'valibot';
import { pageQuery } from '../paging';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { maxCharacters, requiredName, storable } from './text.schema';

/** Request and response shapes of the note routes. Unknown fields are dropped, not rejected. */

const noteTitle = requiredName(200);
const noteContent = v.pipe(v.string('Must be a string'), ...maxCharacters(100_000), storable);

export const CreateNoteRequest = v.object({
  title: noteTitle,
  content: v.optional(noteContent),
});

/** A field that is omitted or null keeps the stored value. */
export const UpdateNoteRequest = v.object({
  title: v.optional(v.nullable(noteTitle)),
  content: v.optional(v.nullable(noteContent)),
});

export const NoteIdParams = v.object({ note_id: integerParam(1, INT4_MAX, "The note's id") });

/** Paged exactly as projects are. */
export const ListNotesQuery = pageQuery('notes');

export const NoteResponse = v.object({
  id: integer,
  title: v.string(),
  content: v.string(),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
