import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { header, isNonEmptyString, parseJson, startFakeProviderServer } from './fake-provider-server';
import type { EmailProviderFake, FakeRequest, FakeServerOptions, ProviderProtocol } from './fake-provider-server';

/**
 * Amazon SES v2 `SendEmail` (`POST /v2/email/outbound-emails`, REST-JSON): verifies the AWS
 * Signature Version 4 `Authorization` header for real (scope, signed headers, signature computed
 * with the fake's secret key), then the JSON body (From, one To address, Simple content with
 * Subject/Text/Html, EmailTags charset). Errors carry `x-amzn-ErrorType` and `{message}`.
 */
export interface SesFakeOptions extends FakeServerOptions {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const SEND_PATH = '/v2/email/outbound-emails';
const AUTH_PATTERN =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;
const TAG_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

const isSend = (request: FakeRequest) => request.method === 'POST' && request.url.pathname === SEND_PATH;

/** SigV4 as specified in https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html */
function checkSignature(request: FakeRequest, options: SesFakeOptions): string[] {
  const authorization = header(request.headers, 'authorization') ?? '';
  const match = AUTH_PATTERN.exec(authorization);
  if (!match) return [`Authorization is not a well-formed AWS4-HMAC-SHA256 header: "${authorization.slice(0, 40)}…"`];
  const [, accessKeyId = '', shortDate = '', region = '', service = '', signedHeaderList = '', signature = ''] = match;
  const amzDate = header(request.headers, 'x-amz-date') ?? '';
  const problems: string[] = [];
  if (accessKeyId !== options.accessKeyId) problems.push('unknown access key id');
  if (region !== options.region) problems.push(`credential scope region ${region} is not ${options.region}`);
  if (service !== 'ses') problems.push(`credential scope service ${service} is not ses`);
  if (!amzDate.startsWith(shortDate)) problems.push('X-Amz-Date does not match the credential scope date');
  const signedAt = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Math.abs(Date.now() - signedAt) < MAX_CLOCK_SKEW_MS)) problems.push('X-Amz-Date missing or skewed');
  const signedHeaders = signedHeaderList.split(';');
  for (const required of ['host', 'x-amz-date']) {
    if (!signedHeaders.includes(required)) problems.push(`SignedHeaders lacks ${required}`);
  }
  if (problems.length > 0) return problems;

  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${(header(request.headers, name) ?? '').replace(/\s+/g, ' ').trim()}\n`)
    .join('');
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join('&');
  const payloadHash = header(request.headers, 'x-amz-content-sha256') ?? sha256Hex(request.rawBody);
  const canonicalRequest = [request.method, request.url.pathname, query, canonicalHeaders, signedHeaderList, payloadHash].join('\n');
  const scope = `${shortDate}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, shortDate), region), service), 'aws4_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex')) ? [] : ['SigV4 signature does not match'];
}

function checkBody(raw: string): string[] {
  const parsed = parseJson(raw);
  if (!parsed.ok) return ['body is not a JSON object'];
  const body = parsed.value as {
    FromEmailAddress?: unknown;
    Destination?: { ToAddresses?: unknown };
    Content?: { Simple?: { Subject?: { Data?: unknown }; Body?: { Text?: { Data?: unknown }; Html?: { Data?: unknown } } } };
    EmailTags?: Array<{ Name?: unknown; Value?: unknown }>;
  };
  const problems: string[] = [];
  if (!isNonEmptyString(body.FromEmailAddress) || !body.FromEmailAddress.includes('@')) problems.push('FromEmailAddress missing');
  const to = body.Destination?.ToAddresses;
  if (!Array.isArray(to) || to.length !== 1 || !isNonEmptyString(to[0])) problems.push('Destination.ToAddresses is not one address');
  const simple = body.Content?.Simple;
  if (!isNonEmptyString(simple?.Subject?.Data)) problems.push('Content.Simple.Subject.Data missing');
  if (!isNonEmptyString(simple?.Body?.Text?.Data)) problems.push('Content.Simple.Body.Text.Data missing');
  if (!isNonEmptyString(simple?.Body?.Html?.Data)) problems.push('Content.Simple.Body.Html.Data missing');
  for (const tag of body.EmailTags ?? []) {
    if (typeof tag.Name !== 'string' || !TAG_PATTERN.test(tag.Name)) problems.push(`EmailTags name ${String(tag.Name)} is invalid`);
    if (typeof tag.Value !== 'string' || !TAG_PATTERN.test(tag.Value)) problems.push(`EmailTags value ${String(tag.Value)} is invalid`);
  }
  return problems;
}

const sesError = (status: number, type: string, message: string) => ({
  status,
  headers: { 'x-amzn-errortype': type, 'x-amzn-requestid': randomUUID() },
  body: { message },
});

const sesProtocol = (options: SesFakeOptions): ProviderProtocol => ({
  isSendRequest: isSend,

  check(request) {
    const problems = checkSignature(request, options);
    if (problems.length > 0 || !isSend(request)) return problems;
    if (!header(request.headers, 'content-type')?.includes('application/json')) problems.push('Content-Type is not JSON');
    return [...problems, ...checkBody(request.rawBody)];
  },

  rejectViolation(problems) {
    const signature = problems.some((p) => /Authorization|SigV4|SignedHeaders|scope|access key|X-Amz-Date/.test(p));
    return signature
      ? sesError(403, 'SignatureDoesNotMatch', `The request signature we calculated does not match the signature you provided. (${problems.join('; ')})`)
      : sesError(400, 'BadRequestException', problems.join('; '));
  },

  parseEmail(request) {
    const body = JSON.parse(request.rawBody) as {
      FromEmailAddress: string;
      Destination: { ToAddresses: string[] };
      Content: { Simple: { Subject: { Data: string }; Body: { Text: { Data: string }; Html: { Data: string } }; Headers?: Array<{ Name: string; Value: string }> } };
    };
    const simple = body.Content.Simple;
    const headers = Object.fromEntries((simple.Headers ?? []).map((h) => [h.Name, h.Value]));
    return {
      from: body.FromEmailAddress,
      to: body.Destination.ToAddresses[0] ?? '',
      subject: simple.Subject.Data,
      text: simple.Body.Text.Data,
      html: simple.Body.Html.Data,
      headers,
      // SES has no idempotency token; the adapter's key travels as a custom email header.
      idempotencyToken: headers['X-Idempotency-Key'],
      body,
    };
  },

  accepted() {
    return { status: 200, headers: { 'x-amzn-requestid': randomUUID() }, body: { MessageId: `0100${randomUUID()}-000000` } };
  },

  failure(kind) {
    switch (kind) {
      case 'permanent':
        return sesError(400, 'MessageRejected', 'Email address is not verified. The following identities failed the check in region US-EAST-1: nobody@example.com');
      case 'rate-limited':
        return sesError(429, 'TooManyRequestsException', 'Too Many Requests');
      case 'server-error':
        return sesError(500, 'InternalFailure', 'The request processing has failed because of an unknown error.');
    }
  },
});

export const startSesFake = (options: SesFakeOptions): Promise<EmailProviderFake> =>
  startFakeProviderServer(sesProtocol(options), options);
