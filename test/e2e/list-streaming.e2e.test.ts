import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKENS } from '../../app/container/tokens';
import { STREAM_BATCH } from '../../app/http/list-response';
import { NOTE_BATCH } from '../../app/http/routes/notes.routes';
import { EXPORT_BATCH } from '../../core/audit/export-audit-events.use-case';
import type { ListWindow } from '../../core/shared/list-page';
import { apiSuite } from '../support/api-suite';
import { requirePostgres } from '../support/postgres';

/**
 * Every list route sends its whole list without `limit`, yet the server never reads more than
 * one batch of rows at a time: the repository behind each route is spied on in the running app,
 * and no read may go without a limit or return more than a batch (plus the one row that tells
 * whether another batch exists). A server that reads a list whole fails here, whatever the
 * machine's memory.
 */
const postgres = await requirePostgres();

const T0 = '2026-01-01T00:00:00.000Z';

describe.skipIf(!postgres)('lists without limit are read a batch at a time', () => {
  const suite = apiSuite();
  afterEach(() => vi.restoreAllMocks());

  /** Records every read of `method` on the app's own repository instance: its limit and how many rows it returned. */
  function spyReads<R extends object>(repository: R, method: keyof R & string, windowArgument: number) {
    const reads: Array<{ limit: number | undefined; rows: number }> = [];
    const original = (repository[method] as (...args: unknown[]) => Promise<unknown[]>).bind(repository);
    vi.spyOn(repository, method as never).mockImplementation((async (...args: unknown[]) => {
      const rows = await original(...args);
      reads.push({ limit: (args[windowArgument] as ListWindow | undefined)?.limit, rows: rows.length });
      return rows;
    }) as never);
    return reads;
  }

  function expectBatches(reads: Array<{ limit: number | undefined; rows: number }>, batch: number, total: number) {
    expect(reads.length).toBe(Math.ceil(total / batch));
    for (const read of reads) {
      expect(read.limit).toBe(batch + 1);
      expect(read.rows).toBeLessThanOrEqual(batch + 1);
    }
  }

  async function getAll(path: string, token: string): Promise<Array<Record<string, unknown>>> {
    const response = await suite.app.request(path, { headers: { Cookie: `${suite.app.config.sessionCookieName}=${token}` } });
    expect(response.status, path).toBe(200);
    expect(response.headers.get('link'), path).toBeNull();
    return (await response.json()) as Array<Record<string, unknown>>;
  }

  it(`GET /notes: notes of 100,000 characters, ${NOTE_BATCH} per read`, async () => {
    const { database } = suite.app.db!;
    const owner = await suite.sessions.loginAs('member', await suite.sessions.newOrganization());
    const total = NOTE_BATCH * 2 + 7;
    await database.run(
      `insert into note (organization_id, user_id, title, content, created_at, updated_at)
       select $1::int, $2, 'note ' || g, repeat('x', 100000), $3::timestamptz + g * interval '1 second', $3::timestamptz + g * interval '1 second'
       from generate_series(1, $4::int) g`,
      [owner.organizationId, owner.userId, T0, total],
    );
    const reads = spyReads(suite.app.server.container.get(TOKENS.NoteRepository), 'list', 1);

    const notes = await getAll('/notes', owner.token);

    expect(notes.map((note) => note.title)).toEqual(Array.from({ length: total }, (_, i) => `note ${total - i}`));
    expect(notes.every((note) => (note.content as string).length === 100_000)).toBe(true);
    expectBatches(reads, NOTE_BATCH, total);
  });

  it(`GET /projects, /members, /invitations, /organizations, /usage/history and /sessions: ${STREAM_BATCH} per read`, async () => {
    const { database } = suite.app.db!;
    const container = suite.app.server.container;
    const organizationId = await suite.sessions.newOrganization();
    const admin = await suite.sessions.loginAs('org_admin', organizationId);
    const root = await suite.sessions.loginAs('sys_admin', await suite.sessions.newOrganization());
    const total = STREAM_BATCH + 3;
    const series = `from generate_series(1, ${total}) g`;
    const at = `$2::timestamptz + g * interval '1 second'`;
    await database.run(`insert into project (organization_id, user_id, name, description, created_at, updated_at) select $1::int, $3, 'p' || g, null, ${at}, ${at} ${series}`, [organizationId, T0, admin.userId]);
    await database.run(
      `insert into app_user (organization_id, email, role, status, email_verified_at, created_at, updated_at) select $1::int, 'm' || g || '-' || $1::int || '@example.test', 'member', 'active', ${at}, ${at}, ${at} ${series}`,
      [organizationId, T0],
    );
    await database.run(
      `insert into invitation (organization_id, email, role, token_hash, invited_by_user_id, expires_at, created_at)
       select $1::int, 'i' || g || '@example.test', 'member', md5($1::int || 'a' || g) || md5($1::int || 'b' || g), $3, '2999-01-01', ${at} ${series}`,
      [organizationId, T0, admin.userId],
    );
    await database.run(`insert into organization (name, status, overage_enabled, require_mfa, created_at, updated_at) select 'o' || g || '-' || $1::int, 'active', false, false, ${at}, ${at} ${series}`, [organizationId, T0]);
    await database.run(
      `insert into llm_usage_log (organization_id, user_id, feature, model, input_tokens, output_tokens, allotment_tokens, credit_tokens, overage_tokens, cost_usd, period_start, created_at)
       select $1::int, $3, 'improve', 'm', 1, 1, 2, 0, 0, null, $2::timestamptz, ${at} ${series}`,
      [organizationId, T0, admin.userId],
    );
    await database.run(
      `insert into session (user_id, token_hash, created_at, last_seen_at, expires_at) select $1::int, md5($1::int || 's' || g) || md5($1::int || 't' || g), ${at}, ${at}, '2999-01-01' ${series}`,
      [admin.userId, T0],
    );
    const lists = [
      { path: '/projects', token: admin.token, repository: container.get(TOKENS.ProjectRepository), method: 'list', window: 1, expected: total },
      { path: '/members', token: admin.token, repository: container.get(TOKENS.UserRepository), method: 'listByOrganization', window: 1, expected: total + 1 },
      { path: '/invitations', token: admin.token, repository: container.get(TOKENS.InvitationRepository), method: 'listAcceptable', window: 2, expected: total },
      { path: '/organizations', token: root.token, repository: container.get(TOKENS.OrganizationRepository), method: 'list', window: 0, expected: undefined },
      { path: '/usage/history', token: admin.token, repository: container.get(TOKENS.AiDeps).usageLog, method: 'list', window: 2, expected: total },
      { path: '/sessions', token: admin.token, repository: container.get(TOKENS.SessionStore), method: 'listLiveForUser', window: 2, expected: total + 1 },
    ] as const;

    for (const list of lists) {
      const reads = spyReads(list.repository as never, list.method as never, list.window);
      const items = await getAll(list.path, list.token);
      const expected = list.expected ?? Number((await database.select<{ count: number }>('select count(*)::int as count from organization', []))[0]!.count);
      expect(items, list.path).toHaveLength(expected);
      expectBatches(reads, STREAM_BATCH, expected);
      vi.restoreAllMocks();
    }
  });

  it(`GET /audit-events (${STREAM_BATCH} per read) and its NDJSON export (${EXPORT_BATCH} per read), for an org_admin and a sys_admin`, async () => {
    const { database } = suite.app.db!;
    const organizationId = await suite.sessions.newOrganization();
    const admin = await suite.sessions.loginAs('org_admin', organizationId);
    const root = await suite.sessions.loginAs('sys_admin', await suite.sessions.newOrganization());
    const total = EXPORT_BATCH + 3;
    await database.run(
      `insert into audit_event (organization_id, occurred_at, action, actor_type, actor_id, details)
       select $1::int, $2::timestamptz + g * interval '1 second', 'logout', 'user', $3, '{}' from generate_series(1, $4::int) g`,
      [organizationId, T0, admin.userId, total],
    );
    const events = suite.app.server.container.get(TOKENS.AuditEventRepository);
    for (const [path, token] of [
      ['/audit-events', admin.token],
      [`/organizations/${organizationId}/audit-events`, root.token],
    ] as const) {
      const reads = spyReads(events, 'listNewestFirst', 2);
      expect(await getAll(path, token), path).toHaveLength(total);
      expectBatches(reads, STREAM_BATCH, total);
      vi.restoreAllMocks();
    }
    const reads = spyReads(events, 'listOldestFirst', 2);
    const exported = await suite.app.request('/audit-events/export?since=2026-01-01T00:00:00Z&until=2026-02-01T00:00:00Z', {
      headers: { Cookie: `${suite.app.config.sessionCookieName}=${admin.token}` },
    });
    expect((await exported.text()).trimEnd().split('\n')).toHaveLength(total);
    expect(reads.map((read) => read.limit)).toEqual([EXPORT_BATCH, EXPORT_BATCH]);
    expect(reads.map((read) => read.rows)).toEqual([EXPORT_BATCH, 3]);
  });
});
