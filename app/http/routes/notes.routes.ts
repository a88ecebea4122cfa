import * as v from 'valibot';
import type { CreateNote } from '../../../core/notes/create-note.use-case';
import type { DeleteNote } from '../../../core/notes/delete-note.use-case';
import type { GetNote } from '../../../core/notes/get-note.use-case';
import type { ListNotes } from '../../../core/notes/list-notes.use-case';
import type { Note } from '../../../core/notes/note';
import type { UpdateNote } from '../../../core/notes/update-note.use-case';
import { listBody } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import { CreateNoteRequest, ListNotesQuery, NoteIdParams, NoteResponse, UpdateNoteRequest } from '../schemas/note.schemas';

export interface NoteUseCases {
  createNote: CreateNote;
  listNotes: ListNotes;
  getNote: GetNote;
  updateNote: UpdateNote;
  deleteNote: DeleteNote;
}

/** Never the owning organization or user. */
const toResponse = (note: Note): v.InferOutput<typeof NoteResponse> => ({
  id: note.id,
  title: note.title,
  content: note.content,
  created_at: note.createdAt.toISOString(),
  updated_at: note.updatedAt.toISOString(),
});

const TAG = 'Notes';

/** Notes read per query while the whole list is sent: 50 of the largest (100,000 characters) are about 5 million characters. */
export const NOTE_BATCH = 50;

/** The caller's own notes; every route needs `member`, reads included. */
export function noteRoutes(useCases: NoteUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/notes',
      tag: TAG,
      operationId: 'createNote',
      summary: "Create a note of the caller's, within the plan's `max_notes`",
      description: "A note of the caller's, in the caller's organization. `title` is trimmed, 1 to 200 characters; `content` up to 100,000 (default empty). At the plan's `max_notes`: 403 `QUOTA_EXCEEDED`, checked atomically.",
      access: 'member',
      apiKeys: 'refused',
      body: CreateNoteRequest,
      responses: { 201: { description: 'The new note', schema: NoteResponse } },
      errors: ['QUOTA_EXCEEDED'],
      handler: async ({ caller, body }) => ({ status: 201, body: toResponse(await useCases.createNote.execute(caller, body)) }),
    }),
    defineRoute({
      method: 'get',
      path: '/notes',
      tag: TAG,
      operationId: 'listNotes',
      summary: "List the caller's notes, newest first",
      description:
        'The caller\'s own notes, newest first. With `limit`, one page and `Link: <…>; rel="next"` while more remain; follow it as it is (its `cursor` is opaque). ' +
        `Without \`limit\`, all of them, streamed: the server reads them ${NOTE_BATCH} at a time, so a long list costs it one batch of memory, not the whole list.`,
      access: 'member',
      apiKeys: 'refused',
      query: ListNotesQuery,
      responses: {
        200: {
          description: 'A page of notes; all of them without `limit`',
          schema: v.array(NoteResponse),
          headers: NEXT_LINK_HEADER,
        },
      },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listNotes.execute(caller, request), toResponse, batch: NOTE_BATCH }, { baseApiUrl: options.baseApiUrl, path: '/notes' }),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/notes/{note_id}',
      tag: TAG,
      operationId: 'getNote',
      summary: "Read one of the caller's notes",
      description: "Another user's note, or another organization's, answers 404 `RESOURCE_NOT_FOUND`, exactly like a missing one.",
      access: 'member',
      apiKeys: 'refused',
      params: NoteIdParams,
      responses: { 200: { description: 'The note', schema: NoteResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => ({ status: 200, body: toResponse(await useCases.getNote.execute(caller, { id: params.note_id })) }),
    }),
    defineRoute({
      method: 'put',
      path: '/notes/{note_id}',
      tag: TAG,
      operationId: 'updateNote',
      summary: 'Update a note; omitted or null fields keep their value',
      description: 'Omitted or null fields keep their value.',
      access: 'member',
      apiKeys: 'refused',
      params: NoteIdParams,
      body: UpdateNoteRequest,
      responses: { 200: { description: 'The updated note', schema: NoteResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params, body }) => ({
        status: 200,
        body: toResponse(await useCases.updateNote.execute(caller, { id: params.note_id, ...body })),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/notes/{note_id}',
      tag: TAG,
      operationId: 'deleteNote',
      summary: 'Delete a note, freeing its `max_notes` slot',
      description: "Frees a slot of the plan's `max_notes`.",
      access: 'member',
      apiKeys: 'refused',
      params: NoteIdParams,
      responses: { 204: { description: 'Deleted' } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => {
        await useCases.deleteNote.execute(caller, { id: params.note_id });
        return { status: 204 };
      },
    }),
  ];
}
