import { Routine } from '@mikro-orm/core';

/**
 * The quota-checked inserts, one PL/pgSQL function per limited table, declared here once like the
 * tables (MikroORM generates and diffs them with the migrations).
 *
 * Each creates the row only while the organization holds fewer than `p_limit` rows (-1: no
 * limit), and returns nothing otherwise. Check and insert are one statement for the caller, so
 * the organization's row lock is held only inside the database, never across a network round
 * trip (that is what keeps creates fast when one organization's creates queue on the lock). A
 * volatile function's statements each take a fresh snapshot: the count runs after the lock is
 * granted and sees every create committed before it. FOR NO KEY UPDATE serializes these creates
 * without blocking other inserts that reference the organization.
 */
function createWithinLimit(table: 'note' | 'project', text: [string, string]): Routine {
  const [first, second] = text;
  return new Routine({
    name: `${table}_create_within_limit`,
    type: 'function',
    language: 'plpgsql',
    deterministic: false,
    params: {
      p_organization_id: { type: 'integer' },
      p_user_id: { type: 'integer' },
      [`p_${first}`]: { type: 'varchar' },
      [`p_${second}`]: { type: 'text' },
      p_created_at: { type: 'timestamptz' },
      p_limit: { type: 'integer' },
    },
    returns: { runtimeType: 'object', columnType: `setof ${table}` },
    body: `begin
      if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;
        if (select count(*) from ${table} where organization_id = p_organization_id) >= p_limit then
          return;
        end if;
      end if;
      return query insert into ${table} (organization_id, user_id, ${first}, ${second}, created_at, updated_at)
        values (p_organization_id, p_user_id, p_${first}, p_${second}, p_created_at, p_created_at) returning *;
    end`,
  });
}

export const NoteCreateWithinLimit = createWithinLimit('note', ['title', 'content']);
export const ProjectCreateWithinLimit = createWithinLimit('project', ['name', 'description']);

export const routines = [NoteCreateWithinLimit, ProjectCreateWithinLimit];
