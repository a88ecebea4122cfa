import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailDeliveryError } from '../../core/email/mailer.port';
import type { DeliveryFailureKind, EmailMessage, Mailer } from '../../core/email/mailer.port';
import { verificationEmail } from '../../core/email/templates';
import type { EmailProviderFake, ReplyMode } from '../fakes/fake-provider-server';

/** An email as the far side saw it: the provider fake, or the stub's log line. */
export interface ObservedEmail {
  to: string;
  subject: string;
  text: string;
  /** Absent for the stub, which logs the text body only. */
  html?: string;
  /** The token the provider would de-duplicate or trace on (stub: the logged key). */
  idempotencyToken?: string;
  /** Stub only: the level the line was logged at. */
  level?: string;
}

export interface MailerHarness {
  mailer: Mailer;
  observed(): ObservedEmail[];
  /** The provider fake behind the mailer; absent for the stub. */
  fake?: EmailProviderFake;
  /** Values that must never appear in an error (tokens, keys). */
  secrets: string[];
  close(): Promise<void>;
}

export interface MailerContractOptions {
  /**
   * `provider`: an SDK adapter in front of a fake, which can be told to fail.
   * `log`: the stub, which sends nothing and so has no failure modes to test.
   */
  kind: 'provider' | 'log';
}

let sequence = 0;

/** A real verification email, so the contract also checks that the link survives each provider. */
export function aVerificationMessage(overrides: Partial<EmailMessage> = {}): EmailMessage {
  sequence += 1;
  const token = `tok_${sequence}_A-b.c~d`;
  const content = verificationEmail({ appName: 'Tenantkit', baseWebUrl: 'https://app.example.test', token });
  return { to: `user${sequence}@example.test`, ...content, idempotencyKey: `verify-email:user-${sequence}`, tag: 'verify-email', ...overrides };
}

const linkOf = (message: EmailMessage) => /https:\/\/app\.example\.test\/verify-email\?token=\S+/.exec(message.text)?.[0] ?? 'missing link';

const FAILURES: Array<{ mode: ReplyMode; kind: DeliveryFailureKind; what: string }> = [
  { mode: 'server-error', kind: 'transient', what: 'a 5xx' },
  { mode: 'rate-limited', kind: 'transient', what: 'a 429' },
  { mode: 'drop', kind: 'transient', what: 'a dropped connection' },
  { mode: 'slow', kind: 'transient', what: 'an answer slower than the timeout' },
  { mode: 'permanent', kind: 'permanent', what: 'a permanent rejection' },
];

export function mailerContract(name: string, setup: () => Promise<MailerHarness>, options: MailerContractOptions): void {
  describe(`Mailer contract: ${name}`, () => {
    let harness: MailerHarness;

    beforeEach(async () => {
      harness = await setup();
    });

    afterEach(async () => {
      await harness.close();
    });

    it('delivers exactly one email with the recipient, subject and bodies it was given', async () => {
      const message = aVerificationMessage();

      await harness.mailer.send(message);

      const observed = harness.observed();
      expect(observed).toHaveLength(1);
      expect(observed[0]).toMatchObject({ to: message.to, subject: message.subject, text: message.text });
      expect(observed[0]?.text).toContain(linkOf(message));
      if (options.kind === 'provider') {
        expect(observed[0]?.html).toBe(message.html);
        expect(harness.fake?.protocolErrors).toEqual([]);
      } else {
        expect(observed[0]?.level).toBe('info');
      }
    });

    it('keeps non-ASCII and markup-significant characters intact', async () => {
      const message = aVerificationMessage({
        subject: 'Grüße & <welcome> — “quoted” 🚀',
        text: 'Zoë & Åsa\nsecond line: https://app.example.test/verify-email?token=a%2Fb',
        html: '<p>Zoë &amp; Åsa 🚀</p>',
      });

      await harness.mailer.send(message);

      expect(harness.observed()[0]).toMatchObject({ subject: message.subject, text: message.text });
      if (options.kind === 'provider') expect(harness.observed()[0]?.html).toBe(message.html);
    });

    it('carries the same idempotency token for a retry of the same email, and a different one for another email', async () => {
      const first = aVerificationMessage();
      const other = aVerificationMessage();

      await harness.mailer.send(first);
      await harness.mailer.send(first);
      await harness.mailer.send(other);

      const [a, retry, b] = harness.observed().map((email) => email.idempotencyToken);
      expect(a).toBeTruthy();
      expect(retry).toBe(a);
      expect(b).toBeTruthy();
      expect(b).not.toBe(a);
    });

    // The stub sends nothing, so nothing can fail: these cases are registered only for provider adapters.
    if (options.kind !== 'log') describe('provider failures', () => {
      const fake = () => {
        if (!harness.fake) throw new Error('a provider harness must expose its fake');
        return harness.fake;
      };

      for (const { mode, kind, what } of FAILURES) {
        it(`rejects with a ${kind} MailDeliveryError on ${what}, without retrying on its own`, async () => {
          fake().failNext(mode);

          const sending = harness.mailer.send(aVerificationMessage());

          await expect(sending).rejects.toBeInstanceOf(MailDeliveryError);
          await expect(sending).rejects.toMatchObject({ name: 'MailDeliveryError', kind });
          expect(fake().sendAttempts).toBe(1);
          expect(fake().protocolErrors).toEqual([]);
        });

        it(`never shows a secret in the error on ${what}`, async () => {
          fake().failNext(mode);

          const sending = harness.mailer.send(aVerificationMessage());

          await expect(sending).rejects.toBeInstanceOf(MailDeliveryError);
          const error = await sending.catch((e: unknown) => e);
          const rendered = [String(error), (error as Error).stack ?? '', inspect(error, { depth: 5 }), JSON.stringify(error)].join('\n');
          for (const secret of harness.secrets) expect(rendered).not.toContain(secret);
        });
      }

      it('follows the provider through a failure, a recovery and another failure', async () => {
        fake().failNext('server-error');
        fake().failNext('success');
        fake().failNext('rate-limited');
        const message = aVerificationMessage();

        await expect(harness.mailer.send(aVerificationMessage())).rejects.toMatchObject({ kind: 'transient' });
        await harness.mailer.send(message);
        await expect(harness.mailer.send(aVerificationMessage())).rejects.toMatchObject({ kind: 'transient' });

        expect(fake().received.map((email) => email.to)).toEqual([message.to]);
        expect(fake().sendAttempts).toBe(3);
      });
    });
  });
}
