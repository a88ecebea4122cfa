import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { FakeClock } from '../support/fake-clock';
import { CLOCK_TIME } from './organization-repository.contract';
import { aNewUser } from './user-repository.contract';

export interface EmailOutboxHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  outbox: EmailOutbox;
  unitOfWork: UnitOfWork;
  /** What is waiting for delivery, oldest first (read the store's way: the port only writes). */
  pendingEmails(): Promise<EmailMessage[]>;
  /** The clock the adapters stamp bookkeeping times from. */
  clock: FakeClock;
  /** When each stored email was enqueued, oldest first (read the store's way). */
  enqueuedAt(): Promise<Date[]>;
  teardown(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const aMessage = (overrides: Partial<Omit<EmailMessage, 'idempotencyKey'>> = {}): Omit<EmailMessage, 'idempotencyKey'> => ({
  to: 'ada@example.test',
  subject: 'Verify your email for Tenantkit — “now” 🚀',
  text: 'Welcome!\n\nhttps://app.example.test/verify-email?token=abc',
  html: '<p>Welcome! Zoë &amp; Åsa</p>',
  tag: 'verify-email',
  ...overrides,
});

export function describeEmailOutboxContract(name: string, setup: () => Promise<EmailOutboxHarness>): void {
  describe(`EmailOutbox contract: ${name}`, () => {
    let h: EmailOutboxHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('keeps an enqueued message as it was given, with an idempotency key of its own', async () => {
      const message = aMessage();

      await h.outbox.enqueue(message);

      const [pending, ...rest] = await h.pendingEmails();
      expect(rest).toEqual([]);
      expect(pending).toEqual({ ...message, idempotencyKey: expect.stringMatching(UUID) });
    });

    it("stamps the enqueue time from the adapter's clock", async () => {
      h.clock.set(CLOCK_TIME);
      await h.outbox.enqueue(aMessage());
      h.clock.advance(1);
      await h.outbox.enqueue(aMessage());

      expect(await h.enqueuedAt()).toEqual([CLOCK_TIME, new Date(CLOCK_TIME.getTime() + 1)]);
    });

    it('keeps a message without a tag', async () => {
      const { tag: _tag, ...untagged } = aMessage();

      await h.outbox.enqueue(untagged);

      const [pending] = await h.pendingEmails();
      expect(pending?.tag).toBeUndefined();
      expect(pending).toMatchObject(untagged);
    });

    it('gives every message a different key, even identical ones', async () => {
      await h.outbox.enqueue(aMessage());
      await h.outbox.enqueue(aMessage());

      const keys = (await h.pendingEmails()).map((message) => message.idempotencyKey);
      expect(keys).toHaveLength(2);
      expect(new Set(keys).size).toBe(2);
    });

    it('commits the message with the change that caused it', async () => {
      const org = await h.organizations.create({ name: 'Acme' });
      const input = aNewUser(org.id);

      await h.unitOfWork.transaction(async () => {
        await h.users.create(input);
        await h.outbox.enqueue(aMessage({ to: input.email }));
      });

      expect(await h.users.findByEmail(input.email)).not.toBeNull();
      expect((await h.pendingEmails()).map((message) => message.to)).toEqual([input.email]);
    });

    it('drops the message when the change that caused it rolls back', async () => {
      const org = await h.organizations.create({ name: 'Acme' });
      const input = aNewUser(org.id);

      const transaction = h.unitOfWork.transaction(async () => {
        await h.outbox.enqueue(aMessage({ to: input.email }));
        await h.users.create(input);
        throw new Error('a later step failed');
      });

      await expect(transaction).rejects.toThrow('a later step failed');
      await expect(h.users.findByEmail(input.email)).resolves.toBeNull();
      await expect(h.pendingEmails()).resolves.toEqual([]);
    });
  });
}
