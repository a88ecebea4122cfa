import { describe, expect, it } from 'vitest';
import { DevMailbox, extractLinks } from './dev-mailbox';
import { StubMailer } from './stub-mailer';

const email = (to: string, n: number) => ({
  to,
  subject: `Subject ${n}`,
  text: `Open http://localhost:5173/verify-email?token=t${n}\n\nThis link expires.`,
  html: `<p><a href="http://localhost:5173/verify-email?token=t${n}&amp;x=1">Verify</a></p>`,
  idempotencyKey: `k${n}`,
  tag: 'verify-email',
});

describe('DevMailbox', () => {
  it('lists newest first, filtered by recipient whatever its case', () => {
    const mailbox = new DevMailbox();
    mailbox.add(email('ada@example.com', 1));
    mailbox.add(email('grace@example.com', 2));
    mailbox.add(email('ada@example.com', 3));
    expect(mailbox.list().map((m) => m.subject)).toEqual(['Subject 3', 'Subject 2', 'Subject 1']);
    expect(mailbox.list('ADA@example.com').map((m) => m.subject)).toEqual(['Subject 3', 'Subject 1']);
  });

  it('keeps only the newest `capacity` emails', () => {
    const mailbox = new DevMailbox(3);
    for (let n = 1; n <= 5; n++) mailbox.add(email('ada@example.com', n));
    expect(mailbox.list().map((m) => m.subject)).toEqual(['Subject 5', 'Subject 4', 'Subject 3']);
    expect(mailbox.list()[0]!.id).toBe(5);
  });

  it("extracts the links of the HTML (entities decoded) and of the text, each once, without the sentence's punctuation", () => {
    expect(extractLinks(email('a@example.com', 7))).toEqual([
      'http://localhost:5173/verify-email?token=t7&x=1',
      'http://localhost:5173/verify-email?token=t7',
    ]);
    expect(extractLinks({ html: '<a href="mailto:x@example.com">x</a>', text: 'See https://example.com/a.' })).toEqual(['https://example.com/a']);
  });

  it('wakes a waiter when an email to its address arrives, and not for another address', async () => {
    const mailbox = new DevMailbox();
    let woke = false;
    const waiting = mailbox.waitFor('ada@example.com', 5_000).then(() => (woke = true));
    mailbox.add(email('grace@example.com', 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(woke).toBe(false);
    mailbox.add(email('ada@example.com', 2));
    await waiting;
    expect(woke).toBe(true);
    const started = Date.now();
    await mailbox.waitFor('nobody@example.com', 30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('StubMailer', () => {
  it("keeps each email in the mailbox and logs its links as they are, each a whole string", async () => {
    const lines: string[] = [];
    const mailbox = new DevMailbox();
    await new StubMailer((line) => lines.push(line), mailbox).send(email('ada@example.com', 1));
    expect(mailbox.list('ada@example.com')).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"links":["http://localhost:5173/verify-email?token=t1&x=1","http://localhost:5173/verify-email?token=t1"]');
  });
});
