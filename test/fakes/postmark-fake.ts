import { randomUUID } from 'node:crypto';
import {
  header,
  isNonEmptyString,
  parseJson,
  startFakeProviderServer,
} from './fake-provider-server';
import type { EmailProviderFake, FakeRequest, FakeServerOptions, ProviderProtocol } from './fake-provider-server';

/**
 * Postmark's single-send API (`POST /email`, https://postmarkapp.com/developer/api/email-api):
 * checks the `X-Postmark-Server-Token` header against the expected token, JSON content
 * negotiation, and the body fields From/To/Subject/TextBody/HtmlBody/MessageStream.
 * Errors are shaped like Postmark's: `{ErrorCode, Message}`, 422 for API errors.
 */
export interface PostmarkFakeOptions extends FakeServerOptions {
  serverToken: string;
}

const REQUIRED_FIELDS = ['From', 'To', 'Subject', 'TextBody', 'HtmlBody'] as const;

const isSend = (request: FakeRequest) => request.method === 'POST' && request.url.pathname === '/email';

const nameValuePairs = (value: unknown): Record<string, string> => {
  if (!Array.isArray(value)) return {};
  const pairs: Record<string, string> = {};
  for (const item of value as Array<{ Name?: unknown; Value?: unknown }>) {
    if (isNonEmptyString(item.Name) && typeof item.Value === 'string') pairs[item.Name] = item.Value;
  }
  return pairs;
};

const postmarkProtocol = (serverToken: string): ProviderProtocol => ({
  isSendRequest: isSend,

  check(request) {
    const problems: string[] = [];
    if (header(request.headers, 'x-postmark-server-token') !== serverToken) {
      problems.push('X-Postmark-Server-Token header missing or wrong');
    }
    if (!header(request.headers, 'accept')?.includes('application/json')) problems.push('Accept is not JSON');
    if (!isSend(request)) return problems;
    if (!header(request.headers, 'content-type')?.includes('application/json')) problems.push('Content-Type is not JSON');
    const parsed = parseJson(request.rawBody);
    if (!parsed.ok) return [...problems, 'body is not a JSON object'];
    for (const field of REQUIRED_FIELDS) {
      if (!isNonEmptyString(parsed.value[field])) problems.push(`${field} missing or empty`);
    }
    if (parsed.value.MessageStream !== 'outbound') problems.push('MessageStream is not "outbound"');
    if (isNonEmptyString(parsed.value.From) && !parsed.value.From.includes('@')) problems.push('From has no address');
    // Postmark's documented metadata limits: 10 fields, names up to 20 and values up to 80 characters.
    const metadata = Object.entries((parsed.value.Metadata ?? {}) as Record<string, unknown>);
    if (metadata.length > 10) problems.push('more than 10 Metadata fields');
    for (const [name, value] of metadata) {
      if (name.length > 20 || typeof value !== 'string' || value.length > 80) problems.push(`Metadata ${name} breaks the size limits`);
    }
    return problems;
  },

  rejectViolation(problems) {
    const badToken = problems.some((p) => p.startsWith('X-Postmark-Server-Token'));
    return badToken
      ? { status: 401, body: { ErrorCode: 10, Message: 'Request does not contain a valid Server token.' } }
      : { status: 422, body: { ErrorCode: 300, Message: `Invalid email request: ${problems.join('; ')}` } };
  },

  parseEmail(request) {
    const body = JSON.parse(request.rawBody) as Record<string, unknown>;
    const metadata = (body.Metadata ?? {}) as Record<string, unknown>;
    const headers = nameValuePairs(body.Headers);
    return {
      from: String(body.From),
      to: String(body.To),
      subject: String(body.Subject),
      text: String(body.TextBody),
      html: String(body.HtmlBody),
      headers,
      // Postmark has no idempotency mechanism; the adapter's key travels as Metadata.
      idempotencyToken: typeof metadata.idempotency_key === 'string' ? metadata.idempotency_key : undefined,
      body,
    };
  },

  accepted(_request, email) {
    return {
      status: 200,
      body: { To: email.to, SubmittedAt: new Date().toISOString(), MessageID: randomUUID(), ErrorCode: 0, Message: 'OK' },
    };
  },

  failure(kind) {
    switch (kind) {
      case 'permanent':
        return {
          status: 422,
          body: {
            ErrorCode: 406,
            Message:
              'You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ' +
              'bounced@example.com. Inactive recipients are ones that have generated a hard bounce, a spam complaint, or a manual suppression.',
          },
        };
      case 'rate-limited':
        return { status: 429, body: { ErrorCode: 0, Message: 'Rate limit exceeded.' } };
      case 'server-error':
        return { status: 500, body: { ErrorCode: 0, Message: 'Internal server error.' } };
    }
  },
});

export const startPostmarkFake = (options: PostmarkFakeOptions): Promise<EmailProviderFake> =>
  startFakeProviderServer(postmarkProtocol(options.serverToken), options);
