import type { EmailMessage } from '../../core/email/mailer.port';

/** One email as the dev mailbox keeps it: what was "sent", when, and the links it carries. */
export interface MailboxMessage {
  /** Increases with each email this process took; the newest has the highest. */
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  tag: string | undefined;
  receivedAt: Date;
  /** Every http(s) link of the email, in order of first appearance, HTML entities decoded. */
  links: string[];
}

/** How many emails the mailbox keeps by default: plenty for a development session, bounded memory. */
export const MAILBOX_CAPACITY = 500;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

/** The links of an email: the HTML's `href`s, then any other URL of the text body. */
export function extractLinks(message: Pick<EmailMessage, 'text' | 'html'>): string[] {
  const hrefs = [...message.html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)].map((m) =>
    (m[1] ?? m[2] ?? '').replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name]!),
  );
  const inText = [...message.text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((m) => m[0].replace(/[.,;:)\]]+$/, ''));
  return [...new Set([...hrefs, ...inText].filter((link) => /^https?:\/\//i.test(link)))];
}

/**
 * The stub provider's emails of this process, kept in memory for `/dev/mailbox`: the newest
 * `capacity` only, so a long-running dev server does not grow without bound. Never used outside
 * `dev`: the emails hold live tokens.
 */
export class DevMailbox {
  private readonly messages: MailboxMessage[] = [];
  private lastId = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly capacity = MAILBOX_CAPACITY,
    private readonly now: () => Date = () => new Date(),
  ) {}

  add(message: EmailMessage): MailboxMessage {
    const kept: MailboxMessage = {
      id: ++this.lastId,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      tag: message.tag,
      receivedAt: this.now(),
      links: extractLinks(message),
    };
    this.messages.push(kept);
    if (this.messages.length > this.capacity) this.messages.splice(0, this.messages.length - this.capacity);
    for (const wake of this.waiters) wake();
    return kept;
  }

  /** Newest first; `to` keeps those to that address (compared case-insensitively). */
  list(to?: string): MailboxMessage[] {
    const wanted = to?.trim().toLowerCase();
    return this.messages.filter((m) => wanted === undefined || m.to.toLowerCase() === wanted).reverse();
  }

  /**
   * Resolves once the mailbox holds an email (to `to`, when given) or after `timeoutMs`, whichever
   * comes first: a script can ask right after the request that sends one, which the outbox
   * delivers a moment later.
   */
  async waitFor(to: string | undefined, timeoutMs: number): Promise<void> {
    if (this.list(to).length > 0 || timeoutMs <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (this.list(to).length > 0) done();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(check);
    });
  }
}
