import type { Note } from '../../core/notes/note';
import type { NewNote, NoteOwner, NotePatch, NoteRepository } from '../../core/notes/note-repository.port';
import type { ListWindow } from '../../core/shared/list-page';
import type { Selectable, Updateable } from 'kysely';
import type { Database, PreparedSql } from './database';
import { newestFirstList } from './list-window';
import { columnsOf } from './schema/columns';
import type { Tables } from './schema/tables';

type NoteRow = Selectable<Tables['note']>;

/** Every column of `note`, from its entity schema. */
const NOTE_COLUMNS = columnsOf('note');
const LIST = newestFirstList('note', ['organization_id', 'user_id'], NOTE_COLUMNS);
// Prepared: the copilot and the note page read it on every call, and planning a three-condition
// lookup costs PostgreSQL more than running it. Named columns: a prepared `select *` fails once a
// migration changes the table under a running app.
const FIND_BY_ID: PreparedSql = {
  name: 'note_find_by_id',
  text: `select ${NOTE_COLUMNS.join(', ')} from note where organization_id = $1 and user_id = $2 and id = $3`,
};
const COUNT = 'select count(*)::int as count from note where organization_id = $1';
// The check and the insert in one statement (schema/quota.routines.ts).
const CREATE_WITHIN_LIMIT = 'select * from note_create_within_limit($1, $2, $3, $4, $5, $6)';

export const toNote = (row: NoteRow): Note => ({
  id: row.id,
  organizationId: row.organization_id,
  userId: row.user_id,
  title: row.title,
  content: row.content,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/**
 * Kysely over `note`. Every statement but the organization's count is filtered by organization
 * and user, so a guessed id of someone else's note matches nothing. Runs inside the caller's
 * UnitOfWork when there is one (the quota's transaction, for creates).
 */
export class PostgresNoteRepository implements NoteRepository {
  constructor(private readonly database: Database) {}

  async createWithinLimit(owner: NoteOwner, note: NewNote, limit: number): Promise<Note | null> {
    const [row] = await this.database.select<NoteRow>(CREATE_WITHIN_LIMIT, [owner.organizationId, owner.userId, note.title, note.content, note.createdAt, limit]);
    return row ? toNote(row) : null;
  }

  async list(owner: NoteOwner, window?: ListWindow): Promise<Note[]> {
    // Walks the (organization_id, user_id, created_at desc, id desc) index without a sort.
    const rows = await LIST.select(this.database, [owner.organizationId, owner.userId], window);
    return rows.map(toNote);
  }

  async findById(owner: NoteOwner, id: number): Promise<Note | null> {
    const [row] = await this.database.select<NoteRow>(FIND_BY_ID, [owner.organizationId, owner.userId, id]);
    return row ? toNote(row) : null;
  }

  async update(owner: NoteOwner, id: number, patch: NotePatch): Promise<Note | null> {
    const changes: Updateable<Tables['note']> = { updated_at: patch.updatedAt };
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.content !== undefined) changes.content = patch.content;
    const row = await this.database.db
      .updateTable('note')
      .set(changes)
      .where('organization_id', '=', owner.organizationId)
      .where('user_id', '=', owner.userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toNote(row) : null;
  }

  async delete(owner: NoteOwner, id: number): Promise<boolean> {
    const result = await this.database.db
      .deleteFrom('note')
      .where('organization_id', '=', owner.organizationId)
      .where('user_id', '=', owner.userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async countByOrganization(organizationId: number): Promise<number> {
    // An index-only count on the list index's leading column: fixed SQL, it runs on every create.
    const [row] = await this.database.select<{ count: number }>(COUNT, [organizationId]);
    return row!.count;
  }
}
