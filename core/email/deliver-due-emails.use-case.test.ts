import { InMemoryEmailOutbox, InMemoryOutboxDeliveryStore, InMemoryStore } from '../../test/builders/adapters';
import { recordingLogger, type LogLine } from '../../test/support/recording-logger';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/support/fake-clock';
import { DEFAULT_DELIVERY_POLICY, DeliverDueEmails } from './deliver-due-emails.use-case';
import type { DeliveryPolicy } from './deliver-due-emails.use-case';
import { MailDeliveryError } from './mailer.port';
import type { EmailMessage, Mailer } from './mailer.port';
import type { OutboxDeliveryStore } from './outbox-delivery.port';

type Outcome = 'ok' | unknown;

/** A Mailer that answers from a per-recipient script (then succeeds) and records every call. */
class ScriptedMailer implements Mailer {
  readonly calls: EmailMessage[] = [];
  private readonly scripts = new Map<string, Outcome[]>();

  script(to: string, ...outcomes: Outcome[]): void {
    this.scripts.set(to, outcomes);
  }

  always(to: string, outcome: Outcome): void {
    this.script(to, ...Array.from({ length: 100 }, () => outcome));
  }

  callsTo(to: string): number {
    return this.calls.filter((message) => message.to === to).length;
  }

  async send(message: EmailMessage): Promise<void> {
    this.calls.push(message);
    const outcome = this.scripts.get(message.to)?.shift() ?? 'ok';
    if (outcome !== 'ok') throw outcome;
  }
}

const transient = () => new MailDeliveryError('HTTP 503 from the provider', 'transient');
const permanent = () => new MailDeliveryError('HTTP 422 inactive recipient', 'permanent');

const POLICY: DeliveryPolicy = { maxAttempts: 8, baseDelayMs: 1_000, maxDelayMs: 10_000, leaseMs: 60_000, batchSize: 10 };

describe('DeliverDueEmails', () => {
  let clock: FakeClock;
  let memory: InMemoryStore;
  let outbox: InMemoryEmailOutbox;
  let store: InMemoryOutboxDeliveryStore;
  let mailer: ScriptedMailer;
  let logs: LogLine[];
  let randoms: number[];

  const useCase = (policy: DeliveryPolicy = POLICY, deliveryStore: OutboxDeliveryStore = store) =>
    new DeliverDueEmails(
      { store: deliveryStore, mailer, clock, logger: recordingLogger(logs), random: () => randoms.shift() ?? 0.5, policy },
    );

  const enqueue = async (to: string): Promise<number> => {
    await outbox.enqueue({ to, subject: `Hello ${to}`, text: `secret link for ${to}`, html: `<a>secret link for ${to}</a>`, tag: 'verify-email' });
    return Math.max(...memory.emailOutbox.keys());
  };

  const state = async (id: number) => {
    const found = await store.inspect(id);
    if (!found) throw new Error(`no email ${id}`);
    return found;
  };

  /** Runs until `id` leaves `pending`, jumping the clock to each retry; returns the delays used. */
  const retryDelays = async (deliver: DeliverDueEmails, id: number): Promise<number[]> => {
    const delays: number[] = [];
    for (let run = 0; run < 50; run += 1) {
      const before = clock.now().getTime();
      await deliver.execute();
      const after = await state(id);
      if (after.status !== 'pending') return delays;
      delays.push(after.next_attempt_at.getTime() - before);
      clock.set(after.next_attempt_at);
    }
    throw new Error('still pending after 50 runs');
  };

  beforeEach(() => {
    clock = new FakeClock();
    memory = new InMemoryStore({ clock });
    outbox = new InMemoryEmailOutbox(memory);
    store = new InMemoryOutboxDeliveryStore(memory);
    mailer = new ScriptedMailer();
    logs = [];
    randoms = [];
  });

  it('sends every due email once, marks it sent and reports it', async () => {
    const ids = [await enqueue('a@example.test'), await enqueue('b@example.test'), await enqueue('c@example.test')];
    const deliver = useCase();

    expect(await deliver.execute()).toEqual({ sent: 3, retried: 0, dead: 0 });
    for (const id of ids) expect(await state(id)).toMatchObject({ status: 'sent', attempts: 1, sent_at: clock.now() });
    expect(mailer.calls.map((m) => m.to).sort()).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    expect(new Set(mailer.calls.map((m) => m.idempotencyKey)).size).toBe(3);
    expect(logs.filter((l) => l.level === 'info' && l.message === 'email sent')).toHaveLength(3);

    clock.advance(24 * 3_600_000);
    expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(mailer.calls).toHaveLength(3);
  });

  it('claims at most batchSize emails, oldest first, leased for leaseMs', async () => {
    const first = await enqueue('a@example.test');
    clock.advance(1);
    const second = await enqueue('b@example.test');
    clock.advance(1);
    await enqueue('c@example.test');
    const claims: Array<{ now: Date; leaseUntil: Date; limit: number }> = [];
    const spy: OutboxDeliveryStore = {
      claimDue: (now, leaseUntil, limit) => {
        claims.push({ now, leaseUntil, limit });
        return store.claimDue(now, leaseUntil, limit);
      },
      markSent: (id, at) => store.markSent(id, at),
      scheduleRetry: (id, at, error) => store.scheduleRetry(id, at, error),
      markDead: (id, error) => store.markDead(id, error),
      pruneSentBefore: (cutoff, batchSize) => store.pruneSentBefore(cutoff, batchSize),
    };

    expect(await useCase({ ...POLICY, batchSize: 2 }, spy).execute()).toEqual({ sent: 2, retried: 0, dead: 0 });
    expect(claims).toEqual([{ now: clock.now(), leaseUntil: new Date(clock.now().getTime() + 60_000), limit: 2 }]);
    expect((await state(first)).status).toBe('sent');
    expect((await state(second)).status).toBe('sent');
    expect(mailer.calls.map((m) => m.to)).toEqual(['a@example.test', 'b@example.test']);
  });

  it('starts every send of a batch at once, so a batch takes one provider timeout, not one per email', async () => {
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test']) await enqueue(to);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const slowMailer: Mailer = {
      send: async (message) => {
        started.push(message.to);
        await gate;
      },
    };
    const deliver = new DeliverDueEmails({ store, mailer: slowMailer, clock, logger: recordingLogger(logs), random: () => 0.5, policy: POLICY });

    const running = deliver.execute();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toHaveLength(3);
    release();
    expect(await running).toEqual({ sent: 3, retried: 0, dead: 0 });
  });

  it('mixes outcomes in one batch and counts each', async () => {
    await enqueue('ok-1@example.test');
    await enqueue('flaky@example.test');
    await enqueue('rejected@example.test');
    await enqueue('ok-2@example.test');
    mailer.script('flaky@example.test', transient());
    mailer.script('rejected@example.test', permanent());

    expect(await useCase().execute()).toEqual({ sent: 2, retried: 1, dead: 1 });
  });

  it('backs off exponentially: the delay ceiling doubles from baseDelayMs up to maxDelayMs', async () => {
    const id = await enqueue('down@example.test');
    mailer.always('down@example.test', transient());
    randoms = Array.from({ length: 20 }, () => 0.9999999);

    const delays = await retryDelays(useCase(), id);

    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('jitter never goes below half of each attempt\'s ceiling', async () => {
    const id = await enqueue('down@example.test');
    mailer.always('down@example.test', transient());
    randoms = Array.from({ length: 20 }, () => 0);

    expect(await retryDelays(useCase(), id)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('spreads retries uniformly between half the ceiling and the ceiling of each attempt', async () => {
    const id = await enqueue('down@example.test');
    mailer.always('down@example.test', transient());
    randoms = [0.5, 0.25, 0.75, 0.1, 0.9, 0.3, 0.6];

    const delays = await retryDelays(useCase(), id);

    // ceiling/2 + r · ceiling/2, with ceiling = min(10 000, 1 000 · 2^(n−1))
    expect(delays).toEqual([750, 1_250, 3_500, 4_400, 9_500, 6_500, 8_000]);
    delays.forEach((delay, n) => {
      expect(delay).toBeGreaterThanOrEqual(Math.min(POLICY.maxDelayMs, POLICY.baseDelayMs * 2 ** n) / 2);
      expect(delay).toBeLessThanOrEqual(Math.min(POLICY.maxDelayMs, POLICY.baseDelayMs * 2 ** n));
    });
  });

  it('does not send a retry before it is due', async () => {
    const id = await enqueue('flaky@example.test');
    mailer.script('flaky@example.test', transient());
    const deliver = useCase();

    expect(await deliver.execute()).toEqual({ sent: 0, retried: 1, dead: 0 });
    const due = (await state(id)).next_attempt_at;
    clock.set(new Date(due.getTime() - 1));
    expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(mailer.callsTo('flaky@example.test')).toBe(1);
    clock.set(due);
    expect(await deliver.execute()).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(await state(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });

  it('logs each retry as a warning with its delay and reason', async () => {
    const id = await enqueue('flaky@example.test');
    mailer.script('flaky@example.test', transient());
    randoms = [0];

    await useCase().execute();

    expect(logs).toEqual([
      {
        level: 'warn',
        message: 'email delivery failed, will retry',
        fields: { email_id: id, tag: 'verify-email', attempt: 1, kind: 'transient', reason: 'HTTP 503 from the provider', retry_in_ms: 500 },
      },
    ]);
    expect((await state(id)).last_error).toBe('HTTP 503 from the provider');
  });

  it('dead-letters a permanent failure after ONE attempt, logs it, and never retries it', async () => {
    const id = await enqueue('bounced@example.test');
    mailer.always('bounced@example.test', permanent());
    const deliver = useCase();

    expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 1 });
    expect(await state(id)).toMatchObject({ status: 'dead', attempts: 1, last_error: 'HTTP 422 inactive recipient' });
    expect(logs).toEqual([
      {
        level: 'error',
        message: 'email dead-lettered',
        fields: { email_id: id, tag: 'verify-email', attempt: 1, kind: 'permanent', reason: 'HTTP 422 inactive recipient' },
      },
    ]);

    for (let run = 0; run < 5; run += 1) {
      clock.advance(POLICY.maxDelayMs + POLICY.leaseMs);
      expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    }
    expect(mailer.callsTo('bounced@example.test')).toBe(1);
  });

  it('dead-letters a transient failure once maxAttempts are used up', async () => {
    const id = await enqueue('down@example.test');
    mailer.always('down@example.test', transient());
    const deliver = useCase({ ...POLICY, maxAttempts: 3 });

    const reports = [];
    for (let run = 0; run < 3; run += 1) {
      reports.push(await deliver.execute());
      clock.advance(POLICY.maxDelayMs);
    }

    expect(reports).toEqual([
      { sent: 0, retried: 1, dead: 0 },
      { sent: 0, retried: 1, dead: 0 },
      { sent: 0, retried: 0, dead: 1 },
    ]);
    expect(await state(id)).toMatchObject({ status: 'dead', attempts: 3 });
    expect(logs.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'email delivery failed, will retry'],
      ['warn', 'email delivery failed, will retry'],
      ['error', 'email dead-lettered'],
    ]);
    expect(logs[2]?.fields).toMatchObject({ email_id: id, attempt: 3, kind: 'transient' });
    clock.advance(24 * 3_600_000);
    expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(mailer.callsTo('down@example.test')).toBe(3);
  });

  it('treats a mailer that throws something other than MailDeliveryError as transient', async () => {
    const id = await enqueue('buggy@example.test');
    mailer.script('buggy@example.test', new TypeError('cannot read properties of undefined'), 'a thrown string');
    const deliver = useCase();

    expect(await deliver.execute()).toEqual({ sent: 0, retried: 1, dead: 0 });
    expect(logs[0]).toMatchObject({ level: 'warn', fields: { kind: 'transient', reason: 'cannot read properties of undefined' } });
    clock.advance(POLICY.maxDelayMs);
    expect(await deliver.execute()).toEqual({ sent: 0, retried: 1, dead: 0 });
    expect(logs[1]).toMatchObject({ level: 'warn', fields: { kind: 'transient', reason: 'a thrown string' } });
    clock.advance(POLICY.maxDelayMs);
    expect(await deliver.execute()).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect((await state(id)).status).toBe('sent');
  });

  it('does not retry an email that was sent when recording it fails; its lease brings it back', async () => {
    const id = await enqueue('a@example.test');
    let failMarkSent = true;
    const touched: string[] = [];
    const flakyStore: OutboxDeliveryStore = {
      claimDue: (now, leaseUntil, limit) => store.claimDue(now, leaseUntil, limit),
      markSent: async (emailId, at) => {
        if (failMarkSent) throw new Error('connection terminated');
        await store.markSent(emailId, at);
      },
      scheduleRetry: async (emailId, at, error) => {
        touched.push('scheduleRetry');
        await store.scheduleRetry(emailId, at, error);
      },
      markDead: async (emailId, error) => {
        touched.push('markDead');
        await store.markDead(emailId, error);
      },
      pruneSentBefore: (cutoff, batchSize) => store.pruneSentBefore(cutoff, batchSize),
    };
    const deliver = useCase(POLICY, flakyStore);

    await expect(deliver.execute()).rejects.toThrow('connection terminated');
    expect(touched).toEqual([]);
    expect(await state(id)).toMatchObject({ status: 'sending', attempts: 1 });

    failMarkSent = false;
    clock.advance(POLICY.leaseMs - 1);
    expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    clock.advance(1);
    expect(await deliver.execute()).toEqual({ sent: 1, retried: 0, dead: 0 });
    // At-least-once: the second send carries the same idempotency key.
    expect(mailer.calls).toHaveLength(2);
    expect(mailer.calls[0]?.idempotencyKey).toBe(mailer.calls[1]?.idempotencyKey);
  });

  it('keeps email content out of its log lines', async () => {
    await enqueue('a@example.test');
    await enqueue('b@example.test');
    await enqueue('c@example.test');
    mailer.script('b@example.test', transient());
    mailer.script('c@example.test', permanent());

    await useCase().execute();

    expect(logs).toHaveLength(3);
    expect(JSON.stringify(logs)).not.toContain('secret link');
  });

  it('has a default policy whose lease outlasts a 30 s provider timeout', () => {
    expect(DEFAULT_DELIVERY_POLICY.leaseMs).toBeGreaterThan(30_000);
    expect(DEFAULT_DELIVERY_POLICY.baseDelayMs / 2).toBeLessThanOrEqual(DEFAULT_DELIVERY_POLICY.maxDelayMs);
  });
});
