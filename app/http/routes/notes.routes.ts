import * as v from 'valibot';
import type { CreateNote } from '../../../core/notes/create-note.use-case';
import type { DeleteNote } from '../../../core/notes/delete-note.use-case';
import type { GetNote } from '../../../core/notes/get-note.use-case';
import type { ListNotes } from '../../../core/notes/list-notes.use-case';
import type { Note } from '../../../core/notes/note';
import type { UpdateNote } from '../../../core/notes/update-note.use-case';
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

/** The caller's own notes; every route needs `member`, reads included. */
export function noteRoutes(useCases: NoteUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/notes',
      tag: TAG,
      operationId: 'createNote',
      summary: "Create a note of the caller's, within the plan's `max_notes`",
      access: 'member',
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
      access: 'member',
      query: ListNotesQuery,
      responses: {
        200: {
          description: 'A page of notes; all of them without `limit`',
          schema: v.array(NoteResponse),
          headers: { Link: 'Sent when more notes remain: `<…/notes?limit=N&cursor=…>; rel="next"`' },
        },
      },
      handler: async ({ caller, query, ctx }) => {
        const page = await useCases.listNotes.execute(caller, query);
        if (page.nextCursor !== null && query.limit !== undefined) {
          const next = `${options.baseApiUrl}/notes?limit=${query.limit}&cursor=${encodeURIComponent(page.nextCursor)}`;
          ctx.set('Link', `<${next}>; rel="next"`);
        }
        return { status: 200, body: page.items.map(toResponse) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/notes/{note_id}',
      tag: TAG,
      operationId: 'getNote',
      summary: "Read one of the caller's notes",
      access: 'member',
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
      access: 'member',
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
      access: 'member',
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
