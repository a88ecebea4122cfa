import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { OutboxDeliveryStore, OutboxEmailStatus } from '../../core/email/outbox-delivery.port';

/** One outbox row as the adapter stores it: what a contract can check beyond the port. */
export interface StoredOutboxEmail {
  status: OutboxEmailStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
  /** The stored bodies; empty once erased. */
  text: string;
  html: string;
}

export interface OutboxDeliveryHarness {
  store: OutboxDeliveryStore;
  /** Puts a `pending` email with no attempts in the outbox, due at `dueAt`; returns its id. */
  enqueue(dueAt: Date, message?: Partial<Omit<EmailMessage, 'idempotencyKey'>>): Promise<number>;
  inspect(id: number): Promise<StoredOutboxEmail>;
  teardown(): Promise<void>;
}

const T0 = new Date('2026-11-21T10:00:00.000Z');
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);
const MINUTE = 60_000;
const LEASE_END = at(MINUTE);
const FAR_FUTURE = at(365 * 24 * 60 * MINUTE);

let sequence = 0;
export function anOutboxMessage(overrides: Partial<Omit<EmailMessage, 'idempotencyKey'>> = {}): Omit<EmailMessage, 'idempotencyKey'> {
  sequence += 1;
  return {
    to: `user-${sequence}@example.test`,
    subject: `Subject ${sequence}`,
    text: `Text ${sequence}`,
    html: `<p>Html ${sequence}</p>`,
    tag: 'verify-email',
    ...overrides,
  };
}

export function describeOutboxDeliveryStoreContract(name: string, setup: () => Promise<OutboxDeliveryHarness>): void {
  describe(`OutboxDeliveryStore contract: ${name}`, () => {
    let h: OutboxDeliveryHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    const ids = (claimed: Array<{ id: number }>) => claimed.map((email) => email.id);

    it('claims only due pending emails, oldest first, and hands back the whole message', async () => {
      const later = await h.enqueue(at(-MINUTE), anOutboxMessage({ to: 'later@example.test', tag: 'reset-password' }));
      const older = await h.enqueue(at(-3 * MINUTE), anOutboxMessage({ to: 'older@example.test', subject: 'Hello', text: 'Plain', html: '<b>Rich</b>' }));
      const notYet = await h.enqueue(at(MINUTE), anOutboxMessage());
      const untagged = await h.enqueue(at(-2 * MINUTE), anOutboxMessage({ tag: undefined }));

      const claimed = await h.store.claimDue(T0, LEASE_END, 10);

      expect(ids(claimed)).toEqual([older, untagged, later]);
      expect(ids(claimed)).not.toContain(notYet);
      const [first, second, third] = claimed;
      expect(first?.message).toMatchObject({ to: 'older@example.test', subject: 'Hello', text: 'Plain', html: '<b>Rich</b>', tag: 'verify-email' });
      expect(first?.message.idempotencyKey).toEqual(expect.any(String));
      expect(second?.message).not.toHaveProperty('tag');
      expect(third?.message.tag).toBe('reset-password');
      expect(new Set(claimed.map((email) => email.message.idempotencyKey)).size).toBe(3);
      expect(claimed.map((email) => email.attempts)).toEqual([1, 1, 1]);
      expect(await h.inspect(notYet)).toMatchObject({ status: 'pending', attempts: 0 });
    });

    it('claims at most `limit`, breaking ties on the due time by id', async () => {
      const a = await h.enqueue(at(-MINUTE));
      const b = await h.enqueue(at(-MINUTE));
      await h.enqueue(at(-MINUTE));

      expect(ids(await h.store.claimDue(T0, LEASE_END, 2))).toEqual([a, b]);
      expect(await h.store.claimDue(T0, LEASE_END, 0)).toEqual([]);
    });

    it('an email due exactly now is due', async () => {
      const id = await h.enqueue(T0);
      expect(ids(await h.store.claimDue(T0, LEASE_END, 10))).toEqual([id]);
    });

    it('leases what it claims: hidden until the lease ends, then claimable again with one more attempt', async () => {
      const id = await h.enqueue(at(-MINUTE));
      const [claim] = await h.store.claimDue(T0, LEASE_END, 10);
      expect(claim?.attempts).toBe(1);
      expect(await h.inspect(id)).toMatchObject({ status: 'sending', attempts: 1, nextAttemptAt: LEASE_END });

      expect(await h.store.claimDue(at(30_000), at(90_000), 10)).toEqual([]);
      expect(await h.store.claimDue(at(MINUTE - 1), at(2 * MINUTE), 10)).toEqual([]);

      // The sender died without a word: once the lease is over the email is due again.
      const [again] = await h.store.claimDue(LEASE_END, at(2 * MINUTE), 10);
      expect(again).toMatchObject({ id, attempts: 2 });
      expect(again?.message).toEqual(claim?.message);
      expect(await h.inspect(id)).toMatchObject({ status: 'sending', attempts: 2, nextAttemptAt: at(2 * MINUTE) });
    });

    it('concurrent claimers never receive the same email', async () => {
      const enqueued: number[] = [];
      for (let i = 0; i < 12; i += 1) enqueued.push(await h.enqueue(at(-i * 1_000)));

      const batches = await Promise.all(Array.from({ length: 5 }, () => h.store.claimDue(T0, LEASE_END, 3)));
      const concurrent = batches.flatMap(ids);
      expect(new Set(concurrent).size).toBe(concurrent.length);
      for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(3);

      // A claimer may skip rows another one holds; whatever is left is claimed afterwards, still once.
      const rest = ids(await h.store.claimDue(T0, LEASE_END, 20));
      expect([...concurrent, ...rest].sort((x, y) => x - y)).toEqual([...enqueued].sort((x, y) => x - y));
      for (const batch of batches) for (const email of batch) expect(email.attempts).toBe(1);
    });

    it('markSent: sent, with its time, and never claimed again', async () => {
      const id = await h.enqueue(at(-MINUTE));
      await h.store.claimDue(T0, LEASE_END, 10);
      await h.store.markSent(id, at(1_000));

      expect(await h.inspect(id)).toMatchObject({ status: 'sent', attempts: 1, sentAt: at(1_000), lastError: null });
      expect(await h.store.claimDue(FAR_FUTURE, at(2 * 365 * 24 * 60 * MINUTE), 10)).toEqual([]);
    });

    it('erases the bodies once an email is sent or dead, and keeps those still to send', async () => {
      const sent = await h.enqueue(at(-MINUTE), anOutboxMessage({ text: 'https://app/reset?token=live', html: '<a href="https://app/reset?token=live">x</a>' }));
      const dead = await h.enqueue(at(-MINUTE));
      const waiting = await h.enqueue(at(-MINUTE), anOutboxMessage({ text: 'still needed', html: '<p>still needed</p>' }));
      await h.store.claimDue(T0, LEASE_END, 2);
      await h.store.markSent(sent, at(1_000));
      await h.store.markDead(dead, 'HTTP 422');

      expect(await h.inspect(sent)).toMatchObject({ status: 'sent', text: '', html: '' });
      expect(await h.inspect(dead)).toMatchObject({ status: 'dead', text: '', html: '' });
      expect(await h.inspect(waiting)).toMatchObject({ status: 'pending', text: 'still needed', html: '<p>still needed</p>' });
    });

    it('prunes sent emails sent before the cutoff, in bounded batches, and nothing else', async () => {
      const sentIds: number[] = [];
      for (let i = 0; i < 3; i += 1) sentIds.push(await h.enqueue(at(-MINUTE)));
      const dead = await h.enqueue(at(-MINUTE));
      const recent = await h.enqueue(at(-MINUTE));
      const pending = await h.enqueue(at(-MINUTE));
      await h.store.claimDue(T0, LEASE_END, 5);
      for (const [i, id] of sentIds.entries()) await h.store.markSent(id, at(i * 1_000));
      await h.store.markDead(dead, 'gone');
      await h.store.markSent(recent, at(10_000));

      expect(await h.store.pruneSentBefore(at(10_000), 2)).toBe(2);
      expect(await h.store.pruneSentBefore(at(10_000), 2)).toBe(1);
      expect(await h.store.pruneSentBefore(at(10_000), 2)).toBe(0);
      for (const id of sentIds) await expect(h.inspect(id)).rejects.toThrow();
      for (const id of [dead, recent, pending]) await expect(h.inspect(id)).resolves.toBeDefined();
    });

    it('scheduleRetry: pending again, due at the given time, keeping the error and the attempt count', async () => {
      const id = await h.enqueue(at(-MINUTE));
      await h.store.claimDue(T0, LEASE_END, 10);
      await h.store.scheduleRetry(id, at(10_000), 'HTTP 503');

      expect(await h.inspect(id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: at(10_000), lastError: 'HTTP 503' });
      expect(await h.store.claimDue(at(9_999), at(70_000), 10)).toEqual([]);
      const [retry] = await h.store.claimDue(at(10_000), at(70_000), 10);
      expect(retry).toMatchObject({ id, attempts: 2 });

      await h.store.markSent(id, at(11_000));
      expect(await h.inspect(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    });

    it('markDead: dead, with its error, and never claimed again', async () => {
      const id = await h.enqueue(at(-MINUTE));
      const other = await h.enqueue(at(-MINUTE));
      await h.store.claimDue(T0, LEASE_END, 1);
      await h.store.markDead(id, 'HTTP 422 inactive recipient');

      expect(await h.inspect(id)).toMatchObject({ status: 'dead', attempts: 1, lastError: 'HTTP 422 inactive recipient', sentAt: null });
      expect(ids(await h.store.claimDue(FAR_FUTURE, at(2 * 365 * 24 * 60 * MINUTE), 10))).toEqual([other]);
      expect(ids(await h.store.claimDue(at(3 * 365 * 24 * 60 * MINUTE), at(4 * 365 * 24 * 60 * MINUTE), 10))).toEqual([other]);
      expect((await h.inspect(id)).status).toBe('dead');
    });

    it('a sender whose lease ran out cannot reopen or kill an email sent since', async () => {
      const id = await h.enqueue(at(-MINUTE));
      await h.store.claimDue(T0, LEASE_END, 10); // the first sender hangs past its lease
      await h.store.claimDue(LEASE_END, at(2 * MINUTE), 10); // a second one takes over …
      await h.store.markSent(id, at(MINUTE + 1_000)); // … and succeeds

      await h.store.scheduleRetry(id, at(2 * MINUTE), 'timeout'); // the first one reports late
      await h.store.markDead(id, 'timeout');

      expect(await h.inspect(id)).toMatchObject({ status: 'sent', attempts: 2, sentAt: at(MINUTE + 1_000) });
      expect(await h.store.claimDue(FAR_FUTURE, at(2 * 365 * 24 * 60 * MINUTE), 10)).toEqual([]);
    });

    it('keeps an error message to a bounded length', async () => {
      const id = await h.enqueue(at(-MINUTE));
      await h.store.claimDue(T0, LEASE_END, 10);
      await h.store.scheduleRetry(id, at(10_000), 'x'.repeat(10_000));
      const stored = await h.inspect(id);
      expect(stored.lastError?.length).toBeGreaterThan(0);
      expect(stored.lastError?.length).toBeLessThanOrEqual(2_000);
    });

    it('operations on an unknown id do nothing', async () => {
      await h.store.markSent(999_999, T0);
      await h.store.scheduleRetry(999_999, T0, 'x');
      await h.store.markDead(999_999, 'x');
      expect(await h.store.claimDue(FAR_FUTURE, at(2 * 365 * 24 * 60 * MINUTE), 10)).toEqual([]);
    });
  });
}
