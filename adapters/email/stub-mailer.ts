import type { EmailMessage, Mailer } from '../../core/email/mailer.port';
import type { Logger } from '../../core/shared/logger.port';
import { extractLinks, type DevMailbox } from './dev-mailbox';

/** The stub takes the email instead of a provider: it is in this line, and nowhere else. */
export const STUB_MESSAGE = 'email written to the log (stub provider, not delivered)';

/** Receives one complete line (no trailing newline), e.g. `(line) => process.stdout.write(line + '\n')`. */
export type LineWriter = (line: string) => void;

/**
 * `APP_EMAIL_PROVIDER=stub`, the default: sends nothing and writes ONE info line per email with
 * the recipient, the subject, the email's links (each a plain string, so it can be copied whole)
 * and the full text body, so a developer can follow the link from the log. In `dev` it also keeps
 * each email in the mailbox `/dev/mailbox` shows. That line deliberately holds the emailed token,
 * against the Logger port's rule: it is the whole point of the stub, which is meant for `dev` only.
 */
export class StubMailer implements Mailer {
  readonly logsEachEmail = true;

  constructor(
    private readonly sink: Logger | LineWriter,
    private readonly mailbox?: DevMailbox,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    const links = this.mailbox ? this.mailbox.add(message).links : extractLinks(message);
    const fields = {
      to: message.to,
      subject: message.subject,
      links,
      text: message.text,
      tag: message.tag,
      idempotencyKey: message.idempotencyKey,
    };
    if (typeof this.sink === 'function') {
      // JSON keeps a multi-line body on one line and matches the shape of the structured logs.
      this.sink(JSON.stringify({ level: 'info', msg: STUB_MESSAGE, ...fields }));
    } else {
      this.sink.info(fields, STUB_MESSAGE);
    }
  }
}
