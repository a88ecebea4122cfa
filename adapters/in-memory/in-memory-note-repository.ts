import type { Note } from '../../core/notes/note';
import type { NewNote, NoteListOptions, NoteOwner, NotePatch, NoteRepository } from '../../core/notes/note-repository.port';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import type { ListPosition } from '../../core/shared/list-page';
import { deleteWhere, type InMemoryStore } from './in-memory-store';

const newestFirst = (a: Note, b: Note) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

// Newest first: "after" a position means older than it.
const isAfter = (note: Note, position: ListPosition) =>
  note.createdAt.getTime() < position.createdAt.getTime() ||
  (note.createdAt.getTime() === position.createdAt.getTime() && note.id < position.id);

// Rows are handed out as copies so callers can never mutate what is stored.
const copy = (note: Note): Note => ({ ...note, createdAt: new Date(note.createdAt), updatedAt: new Date(note.updatedAt) });

/**
 * Notes in the shared InMemoryStore: transactions cover them, and deleting a user or an
 * organization deletes their notes, as the foreign keys do in PostgreSQL.
 */
export class InMemoryNoteRepository implements NoteRepository {
  private readonly rows: Map<number, Note>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<Note>('note');
    store.onDeleteOrganization((organizationId) => deleteWhere(this.rows, (note) => note.organizationId === organizationId));
    store.onDeleteUser((userId) => deleteWhere(this.rows, (note) => note.userId === userId));
  }

  create(owner: NoteOwner, note: NewNote): Promise<Note> {
    return this.atomically(() => {
      const row: Note = { id: this.store.nextId('note'), ...owner, ...note, updatedAt: note.createdAt };
      this.rows.set(row.id, copy(row));
      return copy(row);
    });
  }

  createWithinLimit(owner: NoteOwner, note: NewNote, limit: number): Promise<Note | null> {
    return this.atomically(() => {
      if (limit !== UNLIMITED && this.count(owner.organizationId) >= limit) return null;
      const row: Note = { id: this.store.nextId('note'), ...owner, ...note, updatedAt: note.createdAt };
      this.rows.set(row.id, copy(row));
      return copy(row);
    });
  }

  list(owner: NoteOwner, options: NoteListOptions = {}): Promise<Note[]> {
    return this.atomically(() => {
      const { after, limit } = options;
      return [...this.rows.values()]
        .filter((note) => this.owns(owner, note) && (!after || isAfter(note, after)))
        .sort(newestFirst)
        .slice(0, limit)
        .map(copy);
    });
  }

  findById(owner: NoteOwner, id: number): Promise<Note | null> {
    return this.atomically(() => {
      const row = this.owned(owner, id);
      return row ? copy(row) : null;
    });
  }

  update(owner: NoteOwner, id: number, patch: NotePatch): Promise<Note | null> {
    return this.atomically(() => {
      const row = this.owned(owner, id);
      if (!row) return null;
      const updated: Note = { ...row, title: patch.title ?? row.title, content: patch.content ?? row.content, updatedAt: patch.updatedAt };
      this.rows.set(id, copy(updated));
      return copy(updated);
    });
  }

  delete(owner: NoteOwner, id: number): Promise<boolean> {
    return this.atomically(() => (this.owned(owner, id) ? this.rows.delete(id) : false));
  }

  countByOrganization(organizationId: number): Promise<number> {
    return this.atomically(() => this.count(organizationId));
  }

  private count(organizationId: number): number {
    return [...this.rows.values()].filter((note) => note.organizationId === organizationId).length;
  }

  private owns(owner: NoteOwner, note: Note): boolean {
    return note.organizationId === owner.organizationId && note.userId === owner.userId;
  }

  private owned(owner: NoteOwner, id: number): Note | undefined {
    const row = this.rows.get(id);
    return row && this.owns(owner, row) ? row : undefined;
  }

  private atomically<T>(operation: () => T): Promise<T> {
    return this.store.unitOfWork.exclusive(operation);
  }
}
