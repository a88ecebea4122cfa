import { createHash } from 'node:crypto';
import { Errors, ServerClient } from 'postmark';
import { MailDeliveryError } from '../../core/email/mailer.port';
import type { DeliveryFailureKind, EmailMessage, Mailer } from '../../core/email/mailer.port';

export interface PostmarkMailerOptions {
  /** `APP_POSTMARK_API_KEY`: a Postmark *server* token. */
  serverToken: string;
  senderAddress: string;
  senderName: string;
  /** Scheme and host only (`http://127.0.0.1:4010`); tests point it at a fake. Default: Postmark. */
  apiBaseUrl?: string;
  /** Whole-request deadline. Default 30 s: a hung call must not hold an outbox worker for long. */
  timeoutMs?: number;
}

// Postmark API error codes (https://postmarkapp.com/developer/api/overview#error-codes) that mean
// "this email can never go out as is". Every other 4xx is permanent too; these get clearer messages.
const INACTIVE_RECIPIENT = 406;
const INVALID_EMAIL_REQUEST = 300;
// Postmark caps metadata values at 80 characters; a longer key is replaced by its (stable) hash.
const MAX_METADATA_VALUE = 80;

const metadataValue = (key: string) =>
  key.length <= MAX_METADATA_VALUE ? key : `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;

/**
 * Sends through Postmark's single-send API. Postmark has no idempotency key: the port's key
 * travels as `Metadata.idempotency_key` (searchable in Postmark's activity log and echoed in its
 * webhooks; hashed when over 80 characters) and verbatim as an `X-Idempotency-Key` email header,
 * so a duplicate can be traced, not prevented.
 * The SDK does not retry, which leaves retries to the outbox.
 */
export class PostmarkMailer implements Mailer {
  private readonly client: ServerClient;
  private readonly from: string;

  constructor(private readonly options: PostmarkMailerOptions) {
    const base = options.apiBaseUrl ? new URL(options.apiBaseUrl) : undefined;
    this.client = new ServerClient(options.serverToken, {
      ...(base ? { useHttps: base.protocol === 'https:', requestHost: base.host } : {}),
      // The SDK counts in seconds and accepts fractions.
      timeout: (options.timeoutMs ?? 30_000) / 1000,
    });
    this.from = formatAddress(options.senderName, options.senderAddress);
  }

  async send(message: EmailMessage): Promise<void> {
    try {
      await this.client.sendEmail({
        From: this.from,
        To: message.to,
        Subject: message.subject,
        TextBody: message.text,
        HtmlBody: message.html,
        MessageStream: 'outbound',
        ...(message.tag ? { Tag: message.tag } : {}),
        Headers: [{ Name: 'X-Idempotency-Key', Value: message.idempotencyKey }],
        Metadata: { idempotency_key: metadataValue(message.idempotencyKey) },
      });
    } catch (error) {
      throw this.toDeliveryError(error);
    }
  }

  private toDeliveryError(error: unknown): MailDeliveryError {
    const { kind, detail } = classify(error);
    // Postmark's messages never echo the token, but this one line keeps it that way whatever they say.
    const safe = this.options.serverToken ? detail.split(this.options.serverToken).join('[redacted]') : detail;
    return new MailDeliveryError(`Postmark did not accept the email (${kind}): ${safe}`, kind);
  }
}

function classify(error: unknown): { kind: DeliveryFailureKind; detail: string } {
  if (!(error instanceof Errors.PostmarkError)) {
    // Not an API answer (a bug or an unexpected throw): retrying is the safe default.
    return { kind: 'transient', detail: error instanceof Error ? error.name : 'unknown error' };
  }
  const { statusCode, code, message } = error;
  // statusCode 0: no HTTP answer at all (connection refused or reset, DNS, timeout).
  if (statusCode === 0) return { kind: 'transient', detail: `network error: ${message}` };
  const detail = `HTTP ${statusCode}, Postmark code ${code}: ${message}`;
  if (statusCode === 429 || statusCode >= 500) return { kind: 'transient', detail };
  if (code === INACTIVE_RECIPIENT) return { kind: 'permanent', detail: `inactive recipient; ${detail}` };
  if (code === INVALID_EMAIL_REQUEST) return { kind: 'permanent', detail: `invalid email request; ${detail}` };
  return { kind: 'permanent', detail };
}

/** `"Name" <address>` with the display name quoted per RFC 5322, so a comma or quote in it is safe. */
function formatAddress(name: string, address: string): string {
  const quoted = name.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1');
  return quoted ? `"${quoted}" <${address}>` : address;
}
