import * as v from 'valibot';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { maxCharacters, requiredName, storable } from './text.schema';

/** Request and response shapes of the note routes. Unknown fields are dropped, not rejected. */

const noteTitle = requiredName(200);
const noteContent = v.pipe(maxCharacters(100_000), storable);

export const CreateNoteRequest = v.object({
  title: noteTitle,
  content: v.optional(noteContent),
});

/** A field that is omitted or null keeps the stored value. */
export const UpdateNoteRequest = v.object({
  title: v.optional(v.nullable(noteTitle)),
  content: v.optional(v.nullable(noteContent)),
});

export const NoteIdParams = v.object({ note_id: integerParam(1, INT4_MAX) });

/** Paged exactly as projects are. */
export const ListNotesQuery = v.object({
  /** Without it every note is returned. */
  limit: v.optional(integerParam(1, 1000)),
  /** Opaque: the value from the previous page's `Link` header. */
  cursor: v.optional(v.pipe(v.string('Must be a string'), v.maxLength(200, 'Invalid cursor'))),
});

export const NoteResponse = v.object({
  id: integer,
  title: v.string(),
  content: v.string(),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
