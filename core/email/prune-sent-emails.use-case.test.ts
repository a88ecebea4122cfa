import { describe, expect, it } from 'vitest';
import { InMemoryEmailOutbox, InMemoryOutboxDeliveryStore, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import { PruneSentEmails } from './prune-sent-emails.use-case';

const DAY_MS = 86_400_000;

async function outboxWith(count: number) {
  const clock = new FakeClock();
  const store = new InMemoryStore({ clock });
  const outbox = new InMemoryEmailOutbox(store);
  const delivery = new InMemoryOutboxDeliveryStore(store);
  for (let i = 0; i < count; i += 1) {
    await outbox.enqueue({ to: `u${i}@example.com`, subject: 'Reset your password', text: `https://app/reset?token=secret-${i}`, html: `<a href="https://app/reset?token=secret-${i}">reset</a>` });
  }
  return { clock, store, delivery };
}

describe('outbox bodies and retention', () => {
  it('erases the bodies of sent and dead-lettered emails, keeping recipient and subject', async () => {
    const { clock, store, delivery } = await outboxWith(3);
    const [a, b] = await delivery.claimDue(clock.now(), new Date(clock.now().getTime() + 60_000), 2);
    await delivery.markSent(a!.id, clock.now());
    await delivery.markDead(b!.id, 'rejected address');
    const rows = [...store.emailOutbox.values()];
    expect(rows.map((r) => [r.recipient, r.subject, r.text_body === '', r.html_body === ''])).toEqual([
      ['u0@example.com', 'Reset your password', true, true],
      ['u1@example.com', 'Reset your password', true, true],
      ['u2@example.com', 'Reset your password', false, false],
    ]);
    expect(JSON.stringify(rows.slice(0, 2))).not.toContain('secret-');
  });

  it('deletes sent emails older than the retention, in batches, and keeps the rest', async () => {
    const { clock, store, delivery } = await outboxWith(5);
    const claimed = await delivery.claimDue(clock.now(), new Date(clock.now().getTime() + 60_000), 5);
    for (const email of claimed.slice(0, 3)) await delivery.markSent(email.id, clock.now());
    await delivery.markDead(claimed[3]!.id, 'gave up');
    clock.advance(7 * DAY_MS);
    const prune = new PruneSentEmails({ store: delivery, clock, settings: { retentionDays: 7, batchSize: 2 } });
    await expect(prune.execute()).resolves.toBe(0);
    clock.advance(1);
    await expect(prune.execute()).resolves.toBe(3);
    expect([...store.emailOutbox.values()].map((r) => r.recipient)).toEqual(['u3@example.com', 'u4@example.com']);
  });
});
