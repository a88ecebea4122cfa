import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { noteRoutes } from '../http/routes/notes.routes';
import { PostgresNoteRepository } from '../../adapters/postgres/postgres-note-repository';
import { CreateNote } from '../../core/notes/create-note.use-case';
import { DeleteNote } from '../../core/notes/delete-note.use-case';
import { GetNote } from '../../core/notes/get-note.use-case';
import { ListNotes } from '../../core/notes/list-notes.use-case';
import type { NotesDeps } from '../../core/notes/notes-deps';
import { UpdateNote } from '../../core/notes/update-note.use-case';

/** Notes: the PostgreSQL repository, the five use cases (creates through the plan's quota) and the routes. */
export function notesModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.NoteRepository).toDynamicValue((ctx) => new PostgresNoteRepository(ctx.get(TOKENS.Database)));

    bind(TOKENS.NoteUseCases).toDynamicValue((ctx) => {
      const deps: NotesDeps = { notes: ctx.get(TOKENS.NoteRepository), quota: ctx.get(TOKENS.Entitlements), clock: ctx.get(TOKENS.Clock) };
      return {
        createNote: new CreateNote(deps),
        listNotes: new ListNotes(deps),
        getNote: new GetNote(deps),
        updateNote: new UpdateNote(deps),
        deleteNote: new DeleteNote(deps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) => noteRoutes(ctx.get(TOKENS.NoteUseCases), { baseApiUrl: ctx.get(TOKENS.Config).baseApiUrl }));
  });
}
