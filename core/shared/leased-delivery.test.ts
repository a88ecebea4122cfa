import { describe, expect, it } from 'vitest';
import { InMemoryLeasedOutbox, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import { recordingLogger, type LogLine } from '../../test/support/recording-logger';
import type { DeliveryStatus } from './leased-outbox.port';
import { deliverDue, type DeliveryPolicy, type FailureKind } from './leased-delivery';
import { equalJitterBackoffMs } from './retry-backoff';

/** An outbox row under names of its own: the loop and the in-memory store know no table. */
interface ParcelRow {
  parcel: number;
  label: string;
  status: DeliveryStatus;
  attempts: number;
  due: Date;
  delivered: Date | null;
  problem: string | null;
}
interface Parcel {
  parcel: number;
  label: string;
  attempts: number;
}

const POLICY: DeliveryPolicy = { maxAttempts: 2, baseDelayMs: 1_000, maxDelayMs: 10_000, leaseMs: 30_000, batchSize: 10 };

function setup(send: (parcel: Parcel) => Promise<void>, kindOf: (failure: unknown) => FailureKind = () => 'transient') {
  const clock = new FakeClock();
  const memory = new InMemoryStore({ clock });
  const rows = memory.table<ParcelRow>('parcel');
  const store = new InMemoryLeasedOutbox(memory, {
    rows,
    columns: { key: 'parcel', nextAttemptAt: 'due', sentAt: 'delivered', lastError: 'problem' },
    itemOf: (row: ParcelRow): Parcel => ({ parcel: row.parcel, label: row.label, attempts: row.attempts }),
    onFinish: (row: ParcelRow) => {
      row.label = '';
    },
  });
  const add = (parcel: number, label: string) =>
    rows.set(parcel, { parcel, label, status: 'pending', attempts: 0, due: clock.now(), delivered: null, problem: null });
  const lines: LogLine[] = [];
  const run = () =>
    deliverDue({
      store,
      clock,
      logger: recordingLogger(lines),
      random: () => 0.5,
      policy: POLICY,
      keyOf: (item) => item.parcel,
      send,
      kindOf,
      fieldsOf: (item) => ({ parcel: item.parcel }),
      messages: { sent: 'parcel sent', retried: 'parcel retried', dead: 'parcel dead' },
    });
  return { clock, rows, add, run, lines };
}

describe('deliverDue', () => {
  it('sends what is due, retries a transient failure with the backoff, dead-letters it out of attempts', async () => {
    const { clock, rows, add, run, lines } = setup(async (parcel) => {
      if (parcel.label === 'flaky') throw new Error('try later');
    });
    add(1, 'fine');
    add(2, 'flaky');

    expect(await run()).toEqual({ sent: 1, retried: 1, dead: 0 });
    expect(rows.get(1)).toMatchObject({ status: 'sent', delivered: clock.now(), label: '' });
    const delay = equalJitterBackoffMs(POLICY, 1, () => 0.5);
    expect(rows.get(2)).toMatchObject({ status: 'pending', attempts: 1, problem: 'try later', due: new Date(clock.now().getTime() + delay) });
    expect(lines.map((line) => [line.level, line.message, line.fields.parcel])).toEqual([
      ['info', 'parcel sent', 1],
      ['warn', 'parcel retried', 2],
    ]);

    expect(await run()).toEqual({ sent: 0, retried: 0, dead: 0 });
    clock.advance(delay);
    expect(await run()).toEqual({ sent: 0, retried: 0, dead: 1 });
    expect(rows.get(2)).toMatchObject({ status: 'dead', attempts: 2, label: '' });
    expect(lines.at(-1)).toMatchObject({ level: 'error', message: 'parcel dead', fields: { parcel: 2, kind: 'transient', attempt: 2 } });
  });

  it('dead-letters a permanent failure at once', async () => {
    const { rows, add, run } = setup(
      () => Promise.reject(new Error('no such address')),
      () => 'permanent',
    );
    add(1, 'lost');
    expect(await run()).toEqual({ sent: 0, retried: 0, dead: 1 });
    expect(rows.get(1)).toMatchObject({ status: 'dead', attempts: 1, problem: 'no such address' });
  });

  it('counts a provider that rejects without a reason as a failure, never as sent', async () => {
    const { rows, add, run } = setup(() => Promise.reject(undefined));
    add(1, 'silent');
    expect(await run()).toEqual({ sent: 0, retried: 1, dead: 0 });
    expect(rows.get(1)).toMatchObject({ status: 'pending', problem: 'provider rejected without a reason' });
  });
});
