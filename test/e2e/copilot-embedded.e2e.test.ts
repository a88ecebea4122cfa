import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { testSessions } from '../support/sessions';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';

/**
 * The copilot on the embedded database `npm start` uses by default (PGlite behind its socket):
 * the cap's PL/pgSQL functions and the prepared statements before the first byte run there as
 * they do on a PostgreSQL server.
 */
describe('the AI copilot on the embedded database', () => {
  let app: TestApp;
  let fake: OpenAiFake;

  beforeAll(async () => {
    fake = await startOpenAiFake();
    app = await startTestApp({ APP_OPENAI_API_KEY: fake.apiKey, APP_OPENAI_BASE_URL: fake.url }, { database: 'pglite' });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('streams an answer, charges the reported usage and releases the rest', async () => {
    const database = app.server.infra.database;
    const sessions = testSessions(database);
    const member = await sessions.loginAs('member', await sessions.newOrganization());
    await database.db.updateTable('plan').set({ features: { max_notes: 10, token_limit: 100_000, enable_ai: true } }).where('is_default', '=', true).execute();
    const headers = { cookie: `${app.config.sessionCookieName}=${member.token}`, 'content-type': 'application/json' };
    const note = (await (await app.request('/notes', { method: 'POST', headers, body: JSON.stringify({ title: 'Hello', content: 'text' }) })).json()) as { id: number };
    fake.script({ deltas: ['a', 'b'], usage: { inputTokens: 10, outputTokens: 2 } });

    const res = await app.request(`/notes/${note.id}/copilot/summarize`, { method: 'POST', headers, body: '{}' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ab');

    // Settling follows the end of the stream: wait for the usage row, then read the summary.
    let summary: { allotment_used: number; my_tokens: number } | undefined;
    for (let attempt = 0; attempt < 50 && summary?.allotment_used !== 12; attempt += 1) {
      summary = (await (await app.request('/usage/summary', { headers })).json()) as typeof summary;
      if (summary?.allotment_used !== 12) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(summary).toMatchObject({ allotment_used: 12, my_tokens: 12 });
    const [held] = await database.select<{ count: string }>('select count(*) as count from ai_reservation', []);
    expect(Number(held!.count)).toBe(0);
  });
});
