import { createServer } from 'node:net';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumExecutable, requireChromium } from '../support/chromium';
import { startTestApp, type TestApp } from '../support/app';
import { tokenFromEmail } from '../support/mailbox';
import { requirePostgres } from '../support/postgres';

const chromium = requireChromium();
const postgres = await requirePostgres();

/** A free port, so the app's own address (its allowed browser origin in dev) is the page's origin. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const EMAIL = 'visitor@example.com';
const PASSWORD = 'a long visitor password';

/** Opens an operation of the reference, puts `body` in its request body, presses Execute: the answer's status and body. */
async function send(page: Page, tag: string, operationId: string, body?: unknown): Promise<{ status: number; text: string }> {
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await operation.locator('.opblock-summary').first().click();
  if (body !== undefined) await operation.locator('textarea.body-param__text').fill(JSON.stringify(body));
  await operation.locator('button.execute').click();
  const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
  await status.waitFor({ timeout: 20_000 });
  const code = Number((await status.textContent())?.trim().slice(0, 3));
  const text = (await operation.locator('.live-responses-table tr.response .response-col_description pre').first().textContent()) ?? '';
  await operation.locator('.opblock-summary').first().click(); // closed again
  return { status: code, text };
}

describe.skipIf(!chromium || !postgres)('/docs in a real browser', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp({ APP_PORT: String(port) });
    const origin = `http://localhost:${port}`;
    browser = await playwright.launch({ executablePath: chromiumExecutable(), args: ['--no-sandbox'] });
    const context = await browser.newContext();
    // Offline: anything not asked of this server is refused and recorded.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${origin}/docs`);
    await page.locator('#operations-Authentication-signup').waitFor({ timeout: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the operations by tag, Authentication first, each tag with its description', async () => {
    const tags = await page.locator('.opblock-tag-section h3 .nostyle span').allTextContents();
    expect(tags[0]).toBe('Authentication');
    expect(tags).toContain('Projects');
    expect(tags.indexOf('Users')).toBeLessThan(tags.indexOf('Billing'));
    const first = await page.locator('.opblock-tag-section').first().locator('h3').textContent();
    expect(first).toContain('Start here.');
  });

  it('signs up, logs in and calls a route from the page, with the session cookie it got', async () => {
    const signup = await send(page, 'Authentication', 'signup', { email: EMAIL, password: PASSWORD });
    expect(signup.status).toBe(201);
    // The request reached the server: the verification email is on its way.
    const token = await tokenFromEmail(app, EMAIL, '/verify-email');
    expect((await send(page, 'Authentication', 'verifyEmail', { token })).status).toBe(200);
    expect((await send(page, 'Authentication', 'login', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    const me = await send(page, 'Users', 'getCurrentUser');
    expect(me.status).toBe(200);
    expect(me.text).toContain(EMAIL);
  });

  it('loads nothing from another origin and runs without script errors', () => {
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});
