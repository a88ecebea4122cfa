import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../core/shared/logger.port';
import { aVerificationMessage, mailerContract } from '../../test/contracts/mailer.contract';
import type { MailerHarness, ObservedEmail } from '../../test/contracts/mailer.contract';
import { startAzureFake } from '../../test/fakes/azure-fake';
import type { AzureFake } from '../../test/fakes/azure-fake';
import type { EmailProviderFake, ReceivedEmail } from '../../test/fakes/fake-provider-server';
import { startPostmarkFake } from '../../test/fakes/postmark-fake';
import { startSesFake } from '../../test/fakes/ses-fake';
import { AzureMailer, operationIdFor } from './azure-mailer';
import { PostmarkMailer } from './postmark-mailer';
import { SesMailer } from './ses-mailer';
import { StubMailer } from './stub-mailer';

// Every adapter runs against a fake on 127.0.0.1: nothing here reaches a real provider.
// The client deadline sits well under the fake's `slow` delay, so `slow` means "timed out".
const TIMEOUT_MS = 400;
const SLOW_MS = 2_000;
const SENDER = { senderAddress: 'no-reply@mail.example.test', senderName: 'Tenantkit Team' };

const fromFake = (fake: EmailProviderFake) => (): ObservedEmail[] =>
  fake.received.map((email: ReceivedEmail) => ({
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    idempotencyToken: email.idempotencyToken,
  }));

async function postmarkHarness(): Promise<MailerHarness & { fake: EmailProviderFake }> {
  const serverToken = `pm-${randomBytes(12).toString('hex')}`;
  const fake = await startPostmarkFake({ serverToken, slowMs: SLOW_MS });
  const mailer = new PostmarkMailer({ serverToken, ...SENDER, apiBaseUrl: fake.url, timeoutMs: TIMEOUT_MS });
  return { mailer, fake, observed: fromFake(fake), secrets: [serverToken], close: () => fake.close() };
}

const SES_REGION = 'eu-west-1';
const SES_ACCESS_KEY_ID = 'AKIAFAKEFORTESTS0001';

async function sesHarness(senderName = SENDER.senderName): Promise<MailerHarness & { fake: EmailProviderFake }> {
  const secretAccessKey = randomBytes(20).toString('base64');
  const fake = await startSesFake({ region: SES_REGION, accessKeyId: SES_ACCESS_KEY_ID, secretAccessKey, slowMs: SLOW_MS });
  const mailer = new SesMailer({
    region: SES_REGION,
    ...SENDER,
    senderName,
    endpoint: fake.url,
    credentials: { accessKeyId: SES_ACCESS_KEY_ID, secretAccessKey },
    timeoutMs: TIMEOUT_MS,
  });
  return { mailer, fake, observed: fromFake(fake), secrets: [secretAccessKey], close: () => fake.close() };
}

async function azureHarness(): Promise<MailerHarness & { fake: AzureFake }> {
  const fake = await startAzureFake({ slowMs: SLOW_MS });
  const mailer = new AzureMailer({
    connectionString: fake.connectionString,
    senderAddress: SENDER.senderAddress,
    timeoutMs: TIMEOUT_MS,
    pollIntervalMs: 5,
  });
  return { mailer, fake, observed: fromFake(fake), secrets: [fake.accessKey], close: () => fake.close() };
}

/** The stub behind a Logger that records every call, whatever its level. */
async function stubLoggerHarness(): Promise<MailerHarness> {
  const lines: ObservedEmail[] = [];
  const record = (level: string) => (fields: Record<string, unknown>) =>
    lines.push({
      level,
      to: String(fields.to),
      subject: String(fields.subject),
      text: String(fields.text),
      idempotencyToken: fields.idempotencyKey as string | undefined,
    });
  const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  return { mailer: new StubMailer(logger), observed: () => lines, secrets: [], close: async () => {} };
}

/** The stub writing raw lines, as `app/` may wire it to standard output. */
async function stubLineHarness(): Promise<MailerHarness> {
  const lines: string[] = [];
  const observed = () =>
    lines.map((line) => {
      const entry = JSON.parse(line) as Record<string, string>;
      return { level: entry.level, to: entry.to ?? '', subject: entry.subject ?? '', text: entry.text ?? '', idempotencyToken: entry.idempotencyKey };
    });
  return { mailer: new StubMailer((line) => lines.push(line)), observed, secrets: [], close: async () => {} };
}

mailerContract('postmark', postmarkHarness, { kind: 'provider' });
mailerContract('ses', () => sesHarness(), { kind: 'provider' });
mailerContract('azure', azureHarness, { kind: 'provider' });
mailerContract('stub (logger)', stubLoggerHarness, { kind: 'log' });
mailerContract('stub (line writer)', stubLineHarness, { kind: 'log' });

describe('provider specifics', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  const track = <T extends { close(): Promise<void> }>(harness: T) => {
    open.push(harness);
    return harness;
  };

  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });

  describe('postmark', () => {
    it('sends a quoted From, the outbound stream, the tag, and the key as metadata and header', async () => {
      const { mailer, fake } = track(await postmarkHarness());
      const message = aVerificationMessage();

      await mailer.send(message);

      expect(fake.received[0]?.from).toBe('"Tenantkit Team" <no-reply@mail.example.test>');
      expect(fake.received[0]?.headers['X-Idempotency-Key']).toBe(message.idempotencyKey);
      expect(fake.received[0]?.body).toMatchObject({ MessageStream: 'outbound', Tag: 'verify-email', Metadata: { idempotency_key: message.idempotencyKey } });
    });

    it('hashes an idempotency key too long for Postmark metadata, and keeps it whole in the header', async () => {
      const { mailer, fake } = track(await postmarkHarness());
      const longKey = `invitation:${'x'.repeat(120)}`;

      await mailer.send(aVerificationMessage({ idempotencyKey: longKey }));

      expect(fake.protocolErrors).toEqual([]);
      expect(fake.received[0]?.idempotencyToken).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(fake.received[0]?.headers['X-Idempotency-Key']).toBe(longKey);
    });

    it('names an inactive recipient as the reason of a permanent failure', async () => {
      const { mailer, fake } = track(await postmarkHarness());
      fake.failNext('permanent');

      await expect(mailer.send(aVerificationMessage())).rejects.toThrow(/inactive recipient/);
    });

    it('treats a rejected server token as permanent, without echoing the token', async () => {
      const { fake } = track(await postmarkHarness());
      const wrong = new PostmarkMailer({ serverToken: 'pm-wrong-token', ...SENDER, apiBaseUrl: fake.url, timeoutMs: TIMEOUT_MS });

      const sending = wrong.send(aVerificationMessage());

      await expect(sending).rejects.toMatchObject({ kind: 'permanent' });
      await expect(sending).rejects.not.toThrow(/pm-wrong-token/);
      expect(fake.protocolErrors).toEqual(['POST /email: X-Postmark-Server-Token header missing or wrong']);
    });
  });

  describe('ses', () => {
    it('signs with SigV4, quotes the From, and carries the key as header and sanitized tag', async () => {
      const { mailer, fake } = track(await sesHarness());
      const message = aVerificationMessage({ idempotencyKey: 'verify-email:user 42/é' });

      await mailer.send(message);

      expect(fake.protocolErrors).toEqual([]);
      expect(fake.received[0]?.from).toBe('"Tenantkit Team" <no-reply@mail.example.test>');
      expect(fake.received[0]?.headers['X-Idempotency-Key']).toBe('verify-email:user 42/é');
      expect(fake.received[0]?.body).toMatchObject({
        EmailTags: [
          { Name: 'idempotency_key', Value: 'verify-email_user_42__' },
          { Name: 'category', Value: 'verify-email' },
        ],
      });
    });

    it('encodes a non-ASCII sender name as an RFC 2047 encoded-word', async () => {
      const { mailer, fake } = track(await sesHarness('Équipe Tenantkit'));

      await mailer.send(aVerificationMessage());

      expect(fake.received[0]?.from).toBe(`=?UTF-8?B?${Buffer.from('Équipe Tenantkit').toString('base64')}?= <no-reply@mail.example.test>`);
    });

    it('fails permanently when the signature does not verify (the fake checks it for real)', async () => {
      const { fake } = track(await sesHarness());
      const forged = new SesMailer({
        region: SES_REGION,
        ...SENDER,
        endpoint: fake.url,
        credentials: { accessKeyId: SES_ACCESS_KEY_ID, secretAccessKey: 'not-the-secret' },
        timeoutMs: TIMEOUT_MS,
      });

      await expect(forged.send(aVerificationMessage())).rejects.toMatchObject({ kind: 'permanent' });
      expect(fake.protocolErrors).toEqual(['POST /v2/email/outbound-emails: SigV4 signature does not match']);
    });
  });

  describe('azure', () => {
    it('uses a UUID derived from the idempotency key as Operation-Id', async () => {
      const { mailer, fake } = track(await azureHarness());
      const message = aVerificationMessage();

      await mailer.send(message);

      expect(fake.received[0]?.idempotencyToken).toBe(operationIdFor(message.idempotencyKey));
      expect(operationIdFor(message.idempotencyKey)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(operationIdFor('0D9F6C4A-1B2C-4D3E-8F90-A1B2C3D4E5F6')).toBe('0d9f6c4a-1b2c-4d3e-8f90-a1b2c3d4e5f6');
      expect(fake.received[0]?.headers['X-Idempotency-Key']).toBe(message.idempotencyKey);
    });

    it('fails permanently when the accepted operation ends Failed', async () => {
      const { mailer, fake } = track(await azureHarness());
      fake.failOperationNext();

      const sending = mailer.send(aVerificationMessage());

      await expect(sending).rejects.toMatchObject({ name: 'MailDeliveryError', kind: 'permanent' });
      await expect(sending).rejects.toThrow(/EmailDroppedAllRecipientsSuppressed/);
    });

    it('fails permanently when the access key is wrong (the fake verifies the HMAC)', async () => {
      const { fake } = track(await azureHarness());
      const otherKey = randomBytes(32).toString('base64');
      const wrong = new AzureMailer({
        connectionString: `endpoint=${fake.url}/;accesskey=${otherKey}`,
        senderAddress: SENDER.senderAddress,
        timeoutMs: TIMEOUT_MS,
        pollIntervalMs: 5,
      });

      const sending = wrong.send(aVerificationMessage());

      await expect(sending).rejects.toMatchObject({ kind: 'permanent' });
      await expect(sending).rejects.not.toThrow(otherKey);
      expect(fake.protocolErrors).toEqual(['POST /emails:send: HMAC signature does not match']);
    });

    it('rejects a malformed connection string without repeating it', () => {
      const secret = 'super-secret-access-key';
      expect(() => new AzureMailer({ connectionString: `accesskey=${secret}`, senderAddress: SENDER.senderAddress })).toThrow(
        /connection string/,
      );
      expect(() => new AzureMailer({ connectionString: `accesskey=${secret}`, senderAddress: SENDER.senderAddress })).not.toThrow(
        secret,
      );
    });
  });
});
