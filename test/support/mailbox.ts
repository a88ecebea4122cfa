import type { TestApp } from './app';
import { STUB_MESSAGE } from '../../adapters/email/stub-mailer';

export interface StubEmail {
  to: string;
  subject: string;
  text: string;
}

/** Emails the stub provider "sent" so far: one log line each. */
export function stubEmails(app: TestApp, to?: string): StubEmail[] {
  return app
    .logs()
    .filter((line) => line.msg === STUB_MESSAGE && (to === undefined || line.to === to))
    .map((line) => ({ to: String(line.to), subject: String(line.subject), text: String(line.text) }));
}

/**
 * Waits (bounded) for the `index`-th email to `to` whose text links to `path`, as delivered by
 * the outbox job through the stub provider, and returns the token from its link.
 */
export async function tokenFromEmail(app: TestApp, to: string, path: string, index = 0, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const pattern = new RegExp(`${path.replace(/[/]/g, '\\/')}\\?token=([A-Za-z0-9_%-]+)`);
  while (Date.now() < deadline) {
    const links = stubEmails(app, to)
      .map((email) => pattern.exec(email.text)?.[1])
      .filter((token): token is string => token !== undefined);
    if (links[index] !== undefined) return decodeURIComponent(links[index]!);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no email #${index} to ${to} linking ${path} within ${timeoutMs} ms`);
}
