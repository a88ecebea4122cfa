import type { Database } from '../../adapters/postgres/database';
import type { StoreFaults } from './audited-flows.contract';

/** Installs the function the faults' triggers call: once per database, before `triggerFaults`. */
export const REFUSE_FUNCTION = `create or replace function tk_test_refuse() returns trigger language plpgsql as $$
  begin raise exception 'tk_test: % on % refused', tg_op, tg_table_name; end $$`;

/**
 * The database itself refuses: a trigger on audit_event fails the event's insert, and a deferred
 * constraint trigger on the flow's tables fails the change when its transaction commits, after
 * the event was written. The snapshot is every row of the flow's tables and of the audit log.
 */
export function triggerFaults(database: Database): StoreFaults {
  let changed: string[] = [];
  return {
    async failEvent() {
      await database.run('create trigger tk_test_refuse_event before insert on audit_event for each row execute function tk_test_refuse()', []);
    },
    async failChange(tables) {
      changed = tables;
      for (const table of tables) {
        await database.run(
          `create constraint trigger tk_test_refuse_change after insert or update or delete on ${table} deferrable initially deferred for each row execute function tk_test_refuse()`,
          [],
        );
      }
    },
    async heal() {
      await database.run('drop trigger if exists tk_test_refuse_event on audit_event', []);
      for (const table of changed) await database.run(`drop trigger if exists tk_test_refuse_change on ${table}`, []);
      changed = [];
    },
    async snapshot(tables) {
      const rows: Record<string, string[]> = {};
      for (const table of [...tables, 'audit_event']) {
        const result = await database.select<{ row: unknown }>(`select to_jsonb(t) as row from ${table} t`, []);
        rows[table] = result.map(({ row }) => JSON.stringify(row)).sort();
      }
      return rows;
    },
  };
}
