import { InMemoryEmailOutbox } from '../../adapters/in-memory/in-memory-email-outbox';
import { InMemoryOutboxDeliveryStore } from '../../adapters/in-memory/in-memory-outbox-delivery-store';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { FakeClock } from '../support/fake-clock';
import { anOutboxMessage, describeOutboxDeliveryStoreContract } from './outbox-delivery-store.contract';

// Emails go in through the real enqueue side (InMemoryEmailOutbox): a new email is due when it
// is enqueued, by the store's clock.
describeOutboxDeliveryStoreContract('in-memory', async () => {
  const clock = new FakeClock();
  const memory = new InMemoryStore({ clock });
  const outbox = new InMemoryEmailOutbox(memory);
  const store = new InMemoryOutboxDeliveryStore(memory);
  return {
    store,
    async enqueue(dueAt, message) {
      clock.set(dueAt);
      await outbox.enqueue(anOutboxMessage(message));
      return Math.max(...memory.emailOutbox.keys());
    },
    async inspect(id) {
      const row = await store.inspect(id);
      if (!row) throw new Error(`no outbox email ${id}`);
      return {
        status: row.status,
        attempts: row.attempts,
        nextAttemptAt: row.next_attempt_at,
        lastError: row.last_error,
        sentAt: row.sent_at,
        text: row.text_body,
        html: row.html_body,
      };
    },
    teardown: async () => {},
  };
});
