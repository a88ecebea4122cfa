import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDITED_FLOWS, type AuditWorld, type FlowSecrets } from '../builders/audited-flows';

/**
 * How a store is broken for the proofs: the event's insert refused, or the change refused when it
 * commits (after its event was written in the same transaction). `heal` undoes both.
 */
export interface StoreFaults {
  failEvent(): Promise<void>;
  failChange(tables: string[]): Promise<void>;
  heal(): Promise<void>;
  /** Everything the flow could have written (its tables and the audit log), comparable with `toEqual`. */
  snapshot(tables: string[]): Promise<unknown>;
}

/** Fresh ones per run: a store shared by the runs keeps token hashes unique. */
const secrets = (): FlowSecrets => {
  const salt = randomBytes(6).toString('hex');
  return {
    password: `correct-horse-${salt}`,
    newPassword: `battery-staple-${salt}`,
    sessionToken: `session-${salt}`,
    totpCode: '123456',
    recoveryCode: `RC-${salt}`,
    invitationToken: `invitation-${salt}`,
    resetToken: `reset-${salt}`,
    apiKey: `tk_${salt}`,
  };
};

/**
 * Every audited flow, on one store: a successful run records its events with its change; an event
 * that cannot be written takes the change down with it; a change that cannot commit leaves no
 * event behind. Runs each flow on a fresh organization; the tests of one store run one at a time.
 */
export function describeAuditedFlowTransactions(name: string, setup: () => Promise<{ world: AuditWorld; faults: StoreFaults; memory: boolean }>): void {
  describe(`audited flows commit with their events: ${name}`, () => {
    const newEvents = async (world: AuditWorld, afterId: number) => (await world.allEvents()).filter((event) => event.id > afterId);
    const lastId = async (world: AuditWorld) => (await world.allEvents()).at(-1)?.id ?? 0;

    for (const flow of AUDITED_FLOWS) {
      describe(flow.name, () => {
        it(`records ${flow.actions.join(', ')} with the change`, async (context) => {
          const { world, faults, memory } = await setup();
          if (flow.memoryOnly && !memory) return context.skip();
          const prepared = await flow.prepare(world, secrets());
          const before = await faults.snapshot(flow.tables);
          const from = await lastId(world);

          await prepared.run();

          const events = await newEvents(world, from);
          expect(events.map((event) => event.action)).toEqual(flow.actions);
          const organizationId = prepared.organizationId ?? events[0]!.organizationId;
          expect(events.every((event) => event.organizationId === organizationId)).toBe(true);
          expect(await faults.snapshot(flow.tables)).not.toEqual(before);
        });

        it('makes no change when its event cannot be written', async (context) => {
          const { world, faults, memory } = await setup();
          if (flow.memoryOnly && !memory) return context.skip();
          const prepared = await flow.prepare(world, secrets());
          const before = await faults.snapshot(flow.tables);

          await faults.failEvent();
          try {
            await expect(prepared.run()).rejects.toThrow();
          } finally {
            await faults.heal();
          }

          expect(await faults.snapshot(flow.tables)).toEqual(before);
        });

        it('writes no event when its change cannot commit', async (context) => {
          const { world, faults, memory } = await setup();
          if (flow.memoryOnly && !memory) return context.skip();
          const prepared = await flow.prepare(world, secrets());
          const before = await faults.snapshot(flow.tables);
          const from = await lastId(world);

          await faults.failChange(flow.tables);
          try {
            await expect(prepared.run()).rejects.toThrow();
          } finally {
            await faults.heal();
          }

          expect(await newEvents(world, from)).toEqual([]);
          expect(await faults.snapshot(flow.tables)).toEqual(before);
        });
      });
    }
  });
}
