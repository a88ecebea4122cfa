import { SESv2Client, SESv2ServiceException, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { MailDeliveryError } from '../../core/email/mailer.port';
import type { DeliveryFailureKind, EmailMessage, Mailer } from '../../core/email/mailer.port';

export interface SesMailerOptions {
  region: string;
  senderAddress: string;
  senderName: string;
  /** Tests point this at a fake (`http://127.0.0.1:<port>`). Default: the regional SES endpoint. */
  endpoint?: string;
  /** Default: the standard AWS chain (env, shared config, SSO, container/instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Whole-request deadline. Default 30 s: a hung call must not hold an outbox worker for long. */
  timeoutMs?: number;
}

// SES answers these when the email, the sender or the account is wrong: sending again cannot help.
const PERMANENT_ERRORS = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'BadRequestException',
  'AccountSuspendedException',
  'NotFoundException',
  'LimitExceededException',
]);
// A paused account resumes when someone fixes it, and expired temporary credentials are refreshed
// by the AWS chain on the next call: either way the email should wait, not be dropped.
const TRANSIENT_ERRORS = new Set(['TooManyRequestsException', 'SendingPausedException', 'ExpiredTokenException']);

// EmailTags names and values allow only these characters (SES API reference, MessageTag).
const tagValue = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256);

/**
 * Sends through SES v2 `SendEmail` with Simple content. SES has no idempotency token on
 * SendEmail: the port's key travels as an `X-Idempotency-Key` email header (exact) and as the
 * `idempotency_key` EmailTag (sanitized to the tag charset, visible in event publishing), so a
 * duplicate can be traced, not prevented. `maxAttempts: 1`: the outbox owns retries.
 */
export class SesMailer implements Mailer {
  private readonly client: SESv2Client;
  private readonly from: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: SesMailerOptions) {
    this.client = new SESv2Client({
      region: options.region,
      maxAttempts: 1,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    this.from = formatAddress(options.senderName, options.senderAddress);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async send(message: EmailMessage): Promise<void> {
    const command = new SendEmailCommand({
      FromEmailAddress: this.from,
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
          Headers: [{ Name: 'X-Idempotency-Key', Value: message.idempotencyKey }],
        },
      },
      EmailTags: [
        { Name: 'idempotency_key', Value: tagValue(message.idempotencyKey) },
        ...(message.tag ? [{ Name: 'category', Value: tagValue(message.tag) }] : []),
      ],
    });
    try {
      await this.client.send(command, { abortSignal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw this.toDeliveryError(error);
    }
  }

  private toDeliveryError(error: unknown): MailDeliveryError {
    const { kind, detail } = classify(error);
    const secrets = [this.options.credentials?.secretAccessKey, this.options.credentials?.sessionToken];
    const safe = secrets.reduce<string>((text, secret) => (secret ? text.split(secret).join('[redacted]') : text), detail);
    return new MailDeliveryError(`SES did not accept the email (${kind}): ${safe}`, kind);
  }
}

function classify(error: unknown): { kind: DeliveryFailureKind; detail: string } {
  if (!(error instanceof SESv2ServiceException)) {
    // No SES answer: network error, timeout/abort, or credentials that could not be resolved.
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    return { kind: 'transient', detail: `no answer from SES (${detail})` };
  }
  const status = error.$metadata.httpStatusCode;
  const detail = `HTTP ${status ?? '?'} ${error.name}: ${error.message}`;
  if (TRANSIENT_ERRORS.has(error.name)) return { kind: 'transient', detail };
  if (PERMANENT_ERRORS.has(error.name)) return { kind: 'permanent', detail };
  if (status === undefined || status === 429 || status >= 500 || error.$fault === 'server') return { kind: 'transient', detail };
  return { kind: 'permanent', detail };
}

/**
 * `"Name" <address>`. SES requires a non-ASCII display name as an RFC 2047 encoded-word;
 * an ASCII one is quoted so a comma or quote in it cannot split the address.
 */
function formatAddress(name: string, address: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ').trim();
  if (!clean) return address;
  if (/[^\x00-\x7f]/.test(clean)) return `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?= <${address}>`;
  return `"${clean.replace(/(["\\])/g, '\\$1')}" <${address}>`;
}
