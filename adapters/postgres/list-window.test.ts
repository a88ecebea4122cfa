import { describe, expect, it } from 'vitest';
import type { Database } from './database';
import { newestFirstList } from './list-window';

/** What `database.select` was sent: the newest-first lists must stay fixed SQL, prepared by one name per text. */
function recorder() {
  const sent: Array<[string, string, readonly unknown[]]> = [];
  const select = async (sql: { name: string; text: string }, params: readonly unknown[]) => {
    sent.push([sql.name, sql.text, params]);
    return [];
  };
  return { database: { select, selectTuples: select } as unknown as Database, sent };
}

describe('newestFirstList', () => {
  const after = { createdAt: new Date('2026-11-21T10:00:00.000Z'), id: 7 };

  it('sends the first page and a page after a position as fixed SQL, with the owner columns first', async () => {
    const { database, sent } = recorder();
    const list = newestFirstList('note', ['organization_id', 'user_id'], ['id', 'title']);
    await list.select(database, [1, 2], { limit: 3 });
    await list.select(database, [1, 2], { limit: 3, after });
    await list.select(database, [1, 2], { after });
    await list.select(database, [1, 2]);
    expect(sent).toEqual([
      ['note_list_first', 'select id, title from note where organization_id = $1 and user_id = $2\n  order by note.created_at desc, note.id desc limit $3', [1, 2, 3]],
      [
        'note_list_after',
        'select id, title from note where organization_id = $1 and user_id = $2 and (created_at, id) < ($3, $4::bigint)\n  order by note.created_at desc, note.id desc limit $5',
        [1, 2, after.createdAt, 7, 3],
      ],
      [
        'note_list_after',
        'select id, title from note where organization_id = $1 and user_id = $2 and (created_at, id) < ($3, $4::bigint)\n  order by note.created_at desc, note.id desc limit $5',
        [1, 2, after.createdAt, 7, null],
      ],
      ['note_list_first', 'select id, title from note where organization_id = $1 and user_id = $2\n  order by note.created_at desc, note.id desc limit $3', [1, 2, null]],
    ]);
  });

  it('numbers the placeholders after however many owner columns there are', async () => {
    const { database, sent } = recorder();
    const list = newestFirstList('project', ['organization_id'], ['id', 'name']);
    await list.select(database, [5], { limit: 2, after });
    expect(sent).toEqual([
      ['project_list_after', 'select id, name from project where organization_id = $1 and (created_at, id) < ($2, $3::bigint)\n  order by project.created_at desc, project.id desc limit $4', [5, after.createdAt, 7, 2]],
    ]);
  });

  it('reads an expression under its column name while still sorting by the column itself', async () => {
    const { database, sent } = recorder();
    const list = newestFirstList('project', ['organization_id'], ['id', 'created_at'], { created_at: (column) => `f(${column})` });
    await list.selectTuples(database, [5], { limit: 2 });
    expect(sent).toEqual([
      ['project_list_first', 'select id, f(created_at) as created_at from project where organization_id = $1\n  order by project.created_at desc, project.id desc limit $2', [5, 2]],
    ]);
  });
});
