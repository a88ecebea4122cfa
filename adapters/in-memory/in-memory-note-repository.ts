import type { Note } from '../../core/notes/note';
import type { NewNote, NoteOwner, NotePatch, NoteRepository } from '../../core/notes/note-repository.port';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import { newestFirstWindow, type ListWindow } from '../../core/shared/list-page';
import { deleteWhere, type InMemoryStore } from './in-memory-store';

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

  createWithinLimit(owner: NoteOwner, note: NewNote, limit: number): Promise<Note | null> {
    return this.atomically(() => (limit !== UNLIMITED && this.count(owner.organizationId) >= limit ? null : this.insert(owner, note)));
  }

  list(owner: NoteOwner, window?: ListWindow): Promise<Note[]> {
    return this.atomically(() => newestFirstWindow(this.rows.values(), (note) => this.owns(owner, note), window).map(copy));
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

  private insert(owner: NoteOwner, note: NewNote): Note {
    const row: Note = { id: this.store.nextId('note'), ...owner, ...note, updatedAt: note.createdAt };
    this.rows.set(row.id, copy(row));
    return copy(row);
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
