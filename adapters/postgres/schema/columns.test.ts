import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnsOf, declaredColumns } from './columns';

/**
 * Each table is declared once, in its entity schema; the query builder's statements are checked
 * against it by `tsc`, but fixed SQL in a string is not. This test reads every SQL string of the
 * PostgreSQL adapters and fails when one names a column its table's schema lacks: in an insert's
 * or an update's column list, a single-table select list or condition, or as `alias.column`.
 */
const ADAPTERS = join(import.meta.dirname, '..');
const SQL_START = /^\s*(select|insert|update|delete|with)\s/i;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The string and template literals of a source file that read as SQL, interpolations blanked. */
function sqlStrings(source: string): string[] {
  const literals = [...source.matchAll(/`((?:[^`\\]|\\.)*)`|'((?:[^'\\\n]|\\.)*)'/g)].map((match) => match[1] ?? match[2] ?? '');
  return literals.map((text) => text.replace(/\$\{[^}]*\}/g, ' ')).filter((text) => SQL_START.test(text));
}

/** `table.column` names each statement uses that the schemas do not declare. */
export function unknownColumns(sql: string, tables: ReadonlyMap<string, readonly string[]> = declaredColumns()): string[] {
  const text = sql.toLowerCase().replace(/"/g, '');
  const unknown: string[] = [];
  const check = (table: string, column: string) => {
    const columns = tables.get(table);
    if (columns && IDENTIFIER.test(column) && !columns.includes(column)) unknown.push(`${table}.${column}`);
  };
  const aliases = new Map<string, string>();
  for (const [, table, alias] of text.matchAll(/\b(?:from|join|update|into)\s+([a-z_][a-z0-9_]*)(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/g)) {
    if (!tables.has(table!)) continue;
    aliases.set(table!, table!);
    if (alias && !/^(where|set|on|values|select|left|inner|join|order|group|limit|for|returning)$/.test(alias)) aliases.set(alias, table!);
  }
  for (const [, alias, column] of text.matchAll(/\b([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\b/g)) {
    const table = aliases.get(alias!);
    if (table) check(table, column!);
  }
  for (const [, table, list] of text.matchAll(/\binsert\s+into\s+([a-z_][a-z0-9_]*)\s*\(([^)]*)\)/g)) {
    for (const column of list!.split(',')) check(table!, column.trim());
  }
  const only = new Set(aliases.values());
  if (only.size === 1 && !/\bjoin\b/.test(text)) {
    const [table] = [...only];
    for (const [, column] of text.matchAll(/(?<![.$:\w])([a-z_][a-z0-9_]*)\s*(?:=|<>|<=|>=|<|>|\bis\b|\bin\s*\()/g)) {
      if (!/^(and|or|not|where|set|then|else|when|case|values|select|limit|returning|exists|coalesce|excluded)$/.test(column!)) check(table!, column!);
    }
    const select = /^\s*select\s+([\s\S]*?)\s+from\s/.exec(text);
    if (select) for (const item of select[1]!.split(',')) check(table!, item.trim());
  }
  return unknown;
}

const SOURCES = readdirSync(ADAPTERS)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({ file, sql: sqlStrings(readFileSync(join(ADAPTERS, file), 'utf8')) }));

describe('fixed SQL names only columns the entity schemas declare', () => {
  it('finds the SQL of the adapters', () => {
    expect(SOURCES.flatMap((source) => source.sql).length).toBeGreaterThan(40);
  });

  it.each(SOURCES.filter((source) => source.sql.length > 0).map((source) => [source.file, source.sql] as const))('%s', (_file, statements) => {
    expect(statements.flatMap((sql) => unknownColumns(sql))).toEqual([]);
  });

  it('catches a misspelt column in each position it checks', () => {
    expect(unknownColumns('select id, titel from note where organization_id = $1')).toEqual(['note.titel']);
    expect(unknownColumns('select id from note where organisation_id = $1')).toEqual(['note.organisation_id']);
    expect(unknownColumns('insert into note (organization_id, body) values ($1, $2)')).toEqual(['note.body']);
    expect(unknownColumns('update plan set is_live = $1 where id = $2')).toEqual(['plan.is_live']);
    expect(unknownColumns('select n.id, p.colour from note n join plan p on p.id = n.id')).toEqual(['plan.colour']);
  });

  it('derives the column lists from the schemas, in declaration order', () => {
    expect(columnsOf('note')).toEqual(['id', 'organization_id', 'user_id', 'title', 'content', 'created_at', 'updated_at']);
    expect(columnsOf('invitation')).toContain('invited_by_user_id');
  });
});
