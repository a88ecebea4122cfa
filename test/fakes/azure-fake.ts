import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { header, isNonEmptyString, parseJson, startFakeProviderServer } from './fake-provider-server';
import type { EmailProviderFake, FakeRequest, FakeServerOptions, ProviderProtocol } from './fake-provider-server';

/**
 * Azure Communication Services Email (`POST /emails:send?api-version=…`, then polling the
 * `Operation-Location`): verifies the HMAC-SHA256 access-key signature of every request with the
 * key from the connection string, the content hash, the api-version, an optional UUID
 * `Operation-Id`, and the JSON body. Sends answer 202 + Operation-Location; the operation then
 * reports `Succeeded` (or `Failed` after `failOperationNext()`). Errors are `{error: {code, message}}`.
 */
export interface AzureFake extends EmailProviderFake {
  /** `endpoint=http://127.0.0.1:<port>/;accesskey=<base64 key>` */
  readonly connectionString: string;
  readonly accessKey: string;
  /** The next accepted send is queued, but its operation ends `Failed` (e.g. suppressed recipient). */
  failOperationNext(): void;
}

const SEND_PATH = '/emails:send';
const OPERATION_PATH = /^\/emails\/operations\/([^/]+)$/;
const AUTH_PATTERN = /^HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=([A-Za-z0-9+/=]+)$/;
const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

const isSend = (request: FakeRequest) => request.method === 'POST' && request.url.pathname === SEND_PATH;

/** The scheme of @azure/communication-common's access-key policy. */
function checkSignature(request: FakeRequest, accessKey: string): string[] {
  const match = AUTH_PATTERN.exec(header(request.headers, 'authorization') ?? '');
  if (!match) return ['Authorization is not a well-formed HMAC-SHA256 header'];
  const date = header(request.headers, 'x-ms-date') ?? '';
  const host = header(request.headers, 'host') ?? '';
  const contentHash = header(request.headers, 'x-ms-content-sha256') ?? '';
  const problems: string[] = [];
  if (!(Math.abs(Date.now() - Date.parse(date)) < MAX_CLOCK_SKEW_MS)) problems.push('x-ms-date missing or skewed');
  if (contentHash !== createHash('sha256').update(request.rawBody, 'utf8').digest('base64')) {
    problems.push('x-ms-content-sha256 does not match the body');
  }
  const query = request.url.searchParams.toString();
  const pathAndQuery = query ? `${request.url.pathname}?${query}` : request.url.pathname;
  const stringToSign = `${request.method}\n${pathAndQuery}\n${date};${host};${contentHash}`;
  const expected = createHmac('sha256', Buffer.from(accessKey, 'base64')).update(stringToSign, 'utf8').digest();
  const given = Buffer.from(match[1] ?? '', 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) problems.push('HMAC signature does not match');
  return problems;
}

function checkSend(request: FakeRequest): string[] {
  const problems: string[] = [];
  if (!header(request.headers, 'content-type')?.includes('application/json')) problems.push('Content-Type is not JSON');
  const operationId = header(request.headers, 'operation-id');
  if (operationId !== undefined && !UUID.test(operationId)) problems.push('Operation-Id is not a UUID');
  const parsed = parseJson(request.rawBody);
  if (!parsed.ok) return [...problems, 'body is not a JSON object'];
  const body = parsed.value as {
    senderAddress?: unknown;
    content?: { subject?: unknown; plainText?: unknown; html?: unknown };
    recipients?: { to?: Array<{ address?: unknown }> };
  };
  if (!isNonEmptyString(body.senderAddress) || !body.senderAddress.includes('@')) problems.push('senderAddress missing');
  if (!isNonEmptyString(body.content?.subject)) problems.push('content.subject missing');
  if (!isNonEmptyString(body.content?.plainText)) problems.push('content.plainText missing');
  if (!isNonEmptyString(body.content?.html)) problems.push('content.html missing');
  const to = body.recipients?.to;
  if (!Array.isArray(to) || to.length !== 1 || !isNonEmptyString(to[0]?.address)) problems.push('recipients.to is not one address');
  return problems;
}

const azureError = (status: number, code: string, message: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'x-ms-error-code': code, ...headers },
  body: { error: { code, message } },
});

function azureProtocol(accessKey: string, failingOperations: { next: boolean }): ProviderProtocol {
  const operations = new Map<string, 'Succeeded' | 'Failed'>();
  return {
    isSendRequest: isSend,

    check(request) {
      const problems = checkSignature(request, accessKey);
      if (!API_VERSION.test(request.url.searchParams.get('api-version') ?? '')) problems.push('api-version missing');
      return isSend(request) ? [...problems, ...checkSend(request)] : problems;
    },

    rejectViolation(problems) {
      return problems.some((p) => /Authorization|HMAC|x-ms-/.test(p))
        ? azureError(401, 'Denied', 'Denied by the resource provider.')
        : azureError(400, 'BadRequest', problems.join('; '));
    },

    parseEmail(request) {
      const body = JSON.parse(request.rawBody) as {
        senderAddress: string;
        content: { subject: string; plainText: string; html: string };
        recipients: { to: Array<{ address: string }> };
        headers?: Record<string, string>;
      };
      return {
        from: body.senderAddress,
        to: body.recipients.to[0]?.address ?? '',
        subject: body.content.subject,
        text: body.content.plainText,
        html: body.content.html,
        headers: body.headers ?? {},
        idempotencyToken: header(request.headers, 'operation-id'),
        body,
      };
    },

    accepted(request, _email, baseUrl) {
      const id = header(request.headers, 'operation-id') ?? randomUUID();
      operations.set(id, failingOperations.next ? 'Failed' : 'Succeeded');
      failingOperations.next = false;
      const apiVersion = request.url.searchParams.get('api-version') ?? '';
      return {
        status: 202,
        headers: { 'operation-location': `${baseUrl}/emails/operations/${id}?api-version=${apiVersion}`, 'x-ms-request-id': randomUUID() },
        body: { id, status: 'Running' },
      };
    },

    otherRequest(request) {
      const id = OPERATION_PATH.exec(request.url.pathname)?.[1];
      const status = request.method === 'GET' && id ? operations.get(id) : undefined;
      if (!id || !status) return azureError(404, 'NotFound', 'Operation not found.');
      return status === 'Succeeded'
        ? { status: 200, body: { id, status } }
        : {
            status: 200,
            body: { id, status, error: { code: 'EmailDroppedAllRecipientsSuppressed', message: 'Message was not sent: every recipient is suppressed.' } },
          };
    },

    failure(kind) {
      switch (kind) {
        case 'permanent':
          return azureError(400, 'DomainNotLinked', 'The specified sender domain has not been linked.');
        case 'rate-limited':
          return azureError(429, 'TooManyRequests', 'Too many requests.', { 'retry-after': '60' });
        case 'server-error':
          return azureError(503, 'ServiceUnavailable', 'The service is temporarily unavailable.');
      }
    },
  };
}

export async function startAzureFake(options: FakeServerOptions = {}): Promise<AzureFake> {
  const accessKey = randomBytes(32).toString('base64');
  const failingOperations = { next: false };
  const fake = await startFakeProviderServer(azureProtocol(accessKey, failingOperations), options);
  return Object.assign(fake, {
    connectionString: `endpoint=${fake.url}/;accesskey=${accessKey}`,
    accessKey,
    failOperationNext() {
      failingOperations.next = true;
    },
  });
}
