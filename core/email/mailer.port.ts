/** A provider-neutral email. Adapters translate it to one SDK call; no SDK types cross this line. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Stable across retries of the same email. Adapters pass it to the provider's idempotency
   * mechanism where one exists, so a retry after a lost response does not send twice; where none
   * exists (Postmark, SES) they attach it to the email so a duplicate can at least be traced.
   * docs/email.md says what each provider does with it.
   */
  idempotencyKey: string;
  /** A short category such as `verify-email`, for provider-side tagging and logs. */
  tag?: string;
}

/**
 * Sends one email. Resolves once the provider accepted it. Rejects with MailDeliveryError:
 * `transient` (network error, 429, 5xx: worth retrying) or `permanent` (rejected address,
 * bad request: retrying cannot help).
 */
export interface Mailer {
  send(message: EmailMessage): Promise<void>;
  /**
   * True for a mailer that writes its own log line for each email it takes (the stub, whose line
   * holds the whole email): the delivery loop then keeps its own "email sent" line at debug
   * level, so each email is one line at info.
   */
  readonly logsEachEmail?: boolean;
}

export type DeliveryFailureKind = 'transient' | 'permanent';

export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError';

  constructor(
    message: string,
    readonly kind: DeliveryFailureKind,
  ) {
    super(message);
  }
}
