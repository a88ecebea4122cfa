import { createHash } from 'node:crypto';
import { EmailClient } from '@azure/communication-email';
import { MailDeliveryError } from '../../core/email/mailer.port';
import type { DeliveryFailureKind, EmailMessage, Mailer } from '../../core/email/mailer.port';

export interface AzureMailerOptions {
  /** `endpoint=https://<resource>.communication.azure.com/;accesskey=<base64 key>` */
  connectionString: string;
  /** A sender (`DoNotReply@<verified domain>`); its display name is configured in Azure, not here. */
  senderAddress: string;
  /** Whole-call deadline, send plus polling. Default 30 s. */
  timeoutMs?: number;
  /** Delay between status polls. Default 1 s (the SDK's own default is 2 s); tests use a few ms. */
  pollIntervalMs?: number;
}

// Fixed namespace for deriving Operation-Ids from idempotency keys (RFC 4122 name-based UUID).
const OPERATION_ID_NAMESPACE = Buffer.from('6f1c2a5e8b3d4e7f9a0b1c2d3e4f5a6b', 'hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Azure wants a UUID `Operation-Id`; the port's key is any string. A UUIDv5 of the key is stable
 * across retries, which is all an idempotency token needs.
 */
export function operationIdFor(idempotencyKey: string): string {
  if (UUID.test(idempotencyKey)) return idempotencyKey.toLowerCase();
  const hash = createHash('sha1').update(OPERATION_ID_NAMESPACE).update(idempotencyKey, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Sends through Azure Communication Services Email: `beginSend`, then polls the operation until
 * the service reports it `Succeeded`. The idempotency key becomes the customer-supplied
 * `Operation-Id` of the send, so a retry names the same operation. SDK retries are off
 * (`maxRetries: 0`): the outbox owns retries.
 */
export class AzureMailer implements Mailer {
  private readonly client: EmailClient;
  private readonly accessKey: string;

  constructor(private readonly options: AzureMailerOptions) {
    this.accessKey = /accesskey=([^;]*)/i.exec(options.connectionString)?.[1] ?? '';
    try {
      this.client = new EmailClient(options.connectionString, {
        retryOptions: { maxRetries: 0 },
        // The SDK refuses plain http; a loopback endpoint (a local fake or emulator) is the one exception.
        allowInsecureConnection: isLoopbackHttp(options.connectionString),
      });
    } catch {
      // The SDK's own message repeats the whole connection string, access key included.
      throw new Error('Invalid Azure Communication Services connection string: expected endpoint=https://…;accesskey=…');
    }
  }

  async send(message: EmailMessage): Promise<void> {
    const abortSignal = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    // The operation status the service last reported. core-lro turns a `Failed` status into a
    // plain Error, sometimes before beginSend even returns; this tells it apart from a network error.
    let reported: unknown;
    try {
      const poller = await this.client.beginSend(
        {
          senderAddress: this.options.senderAddress,
          recipients: { to: [{ address: message.to }] },
          content: { subject: message.subject, plainText: message.text, html: message.html },
          headers: { 'X-Idempotency-Key': message.idempotencyKey, ...(message.tag ? { 'X-Email-Tag': message.tag } : {}) },
        },
        {
          operationId: operationIdFor(message.idempotencyKey),
          updateIntervalInMs: this.options.pollIntervalMs ?? 1_000,
          abortSignal,
          onResponse: (response) => {
            reported = (response.parsedBody as { status?: unknown } | undefined)?.status;
          },
        },
      );
      const result = await poller.pollUntilDone({ abortSignal });
      if (result.status !== 'Succeeded') throw new OperationEnded(result.status, result.error?.code ?? '');
    } catch (error) {
      const serviceGaveUp =
        !isRestError(error) && !(error instanceof OperationEnded) && (reported === 'Failed' || reported === 'Canceled');
      throw this.toDeliveryError(serviceGaveUp ? new OperationEnded(String(reported), errorText(error)) : error);
    }
  }

  private toDeliveryError(error: unknown): MailDeliveryError {
    const { kind, detail } = classify(error);
    const safe = this.accessKey ? detail.split(this.accessKey).join('[redacted]') : detail;
    return new MailDeliveryError(`Azure Communication Services did not accept the email (${kind}): ${safe}`, kind);
  }
}

function isLoopbackHttp(connectionString: string): boolean {
  const endpoint = /endpoint=([^;]*)/i.exec(connectionString)?.[1] ?? '';
  return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/i.test(endpoint);
}

/** The service took the send but its operation ended without sending (e.g. suppressed recipient). */
class OperationEnded extends Error {
  constructor(status: string, reason: string) {
    super(`operation ended ${status}${reason ? `: ${reason}` : ''}`);
  }
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error');

interface RestErrorLike {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
}

const isRestError = (error: unknown): error is RestErrorLike =>
  error instanceof Error && error.name === 'RestError';

function classify(error: unknown): { kind: DeliveryFailureKind; detail: string } {
  // The service decided; sending the same email again would end the same way.
  if (error instanceof OperationEnded) return { kind: 'permanent', detail: error.message };
  if (!isRestError(error) || error.statusCode === undefined) {
    // No HTTP answer: connection refused/reset (RestError REQUEST_SEND_ERROR), timeout, abort.
    return { kind: 'transient', detail: `no answer from Azure (${errorText(error)})` };
  }
  const detail = `HTTP ${error.statusCode} ${error.code ?? ''}: ${error.message}`;
  const transient = error.statusCode === 429 || error.statusCode === 408 || error.statusCode >= 500;
  return { kind: transient ? 'transient' : 'permanent', detail };
}
