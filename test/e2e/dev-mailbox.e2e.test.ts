import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage, requireChromium, type RenderedPage } from '../support/chromium';
import { startTestApp, type TestApp } from '../support/app';
import { requirePostgres } from '../support/postgres';

const chromium = requireChromium();
const postgres = await requirePostgres();

interface MailboxJson {
  messages: Array<{ id: number; to: string; subject: string; tag: string | null; received_at: string; links: string[]; text: string; html: string }>;
}

const json = { 'content-type': 'application/json' };

describe.skipIf(!postgres)('/dev/mailbox', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const messages = async (query: string): Promise<MailboxJson['messages']> => {
    const response = await app.request(`/dev/mailbox/messages${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as MailboxJson).messages;
  };

  it('gives each email to an address as JSON, newest first, with its links; `wait` waits for the first one', async () => {
    const signup = await app.request('/auth/signup', { method: 'POST', headers: json, body: JSON.stringify({ email: 'ada@example.com', password: 'a long password' }) });
    expect(signup.status).toBe(201);
    // Asked at once: the outbox delivers a moment after the 201, and `wait` covers that.
    const [first] = await messages('?to=ada@example.com&wait=10');
    expect(first).toMatchObject({ to: 'ada@example.com', tag: 'verify-email' });
    expect(first!.links[0]).toMatch(/^http:\/\/localhost:5173\/verify-email\?token=[A-Za-z0-9_-]+$/);

    await app.request('/auth/resend-verification', { method: 'POST', headers: json, body: JSON.stringify({ email: 'ada@example.com' }) });
    const deadline = Date.now() + 10_000;
    let both = await messages('?to=ada@example.com');
    while (both.length < 2 && Date.now() < deadline) both = await messages('?to=ada@example.com&wait=1');
    expect(both.map((m) => m.id)).toEqual([first!.id + 1, first!.id]);
    expect(both[0]!.links[0]).not.toBe(first!.links[0]);
    expect(await messages('?to=nobody@example.com')).toEqual([]);
  });

  it('answers 422 to a `wait` beyond 20 seconds', async () => {
    const response = await app.request('/dev/mailbox/messages?wait=99');
    expect(response.status).toBe(422);
  });

  describe.skipIf(!chromium)('in a real browser', () => {
    let page: RenderedPage;

    beforeAll(async () => {
      // An email whose HTML tries to reach the page: the sandboxed frame must not let it.
      app.server.infra.devMailbox!.add({
        to: 'mallory@example.com',
        subject: 'Hostile <b>subject</b>',
        text: 'See https://example.com/x',
        html: '<p>Hello</p><script>parent.document.body.dataset.pwned = "yes"</script><a href="https://example.com/x">x</a>',
        idempotencyKey: 'hostile',
      });
      page = await renderPage(`${app.url}/dev/mailbox`);
    }, 90_000);

    it('shows every email newest first, with subject, recipient, clickable links and its HTML in a sandboxed frame', async () => {
      const order = [...page.html.matchAll(/<article class="email" id="email-(\d+)" data-to="([^"]+)"/g)].map((m) => [Number(m[1]), m[2]]);
      const all = await messages('');
      expect(order).toEqual(all.map((m) => [m.id, m.to]));
      expect(order[0]).toEqual([all[0]!.id, 'mallory@example.com']);
      expect(page.html).toContain('<h2>Hostile &lt;b&gt;subject&lt;/b&gt;</h2>');
      const verify = all.find((m) => m.to === 'ada@example.com')!;
      expect(page.html).toContain(`<a href="${verify.links[0]}" target="_blank" rel="noopener noreferrer">`);
      expect(page.html).toMatch(/<iframe title="[^"]*" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="&lt;base target=&quot;_blank&quot;&gt;/);
      expect(page.html).toContain('verify-email?token=');
      expect(page.html).not.toContain('data-pwned');
    });

    it('loads nothing else and runs without errors', () => {
      expect(page.console.filter((line) => !/Blocked script execution in 'about:srcdoc'/.test(line))).toEqual([]);
    });
  });
});

describe.skipIf(!postgres)('/dev/mailbox outside dev', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      APP_ENVIRONMENT: 'beta',
      APP_EMAIL_PROVIDER: 'stub',
      APP_BASE_WEB_URL: 'https://app.example.com',
      APP_BASE_API_URL: 'https://api.example.com',
      APP_CRON_SECRET: randomBytes(24).toString('hex'),
      APP_JWT_SECRET_KEY: randomBytes(24).toString('hex'),
      APP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
  });
  afterAll(() => app?.close());

  it('is not there: 404 for the page and the JSON', async () => {
    expect(app.server.infra.devMailbox).toBeUndefined();
    expect((await app.request('/dev/mailbox')).status).toBe(404);
    expect((await app.request('/dev/mailbox/messages')).status).toBe(404);
  });
});
