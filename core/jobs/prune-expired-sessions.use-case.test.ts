import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../accounts/session-store.port';
import { accountsHarness } from '../../test/builders/accounts';
import { PruneExpiredSessions } from './prune-expired-sessions.use-case';

const DAY_MS = 86_400_000;

async function withSessions(expiries: Date[]) {
  const h = accountsHarness();
  const user = await h.aUser();
  const ids: number[] = [];
  for (const [index, expiresAt] of expiries.entries()) {
    const tokenHash = index.toString(16).padStart(64, '0');
    const created = await h.ports.sessions.create({ userId: user.id, tokenHash, createdAt: new Date(expiresAt.getTime() - DAY_MS), expiresAt, credentialsVersion: 0 });
    ids.push(created!.id);
  }
  const remaining = () => [...h.store.sessions.keys()].sort((a, b) => a - b);
  return { h, ids, remaining };
}

describe('PruneExpiredSessions', () => {
  it('keeps a session expired retention minus one second ago and prunes one expired retention plus one ms ago', async () => {
    const retentionDays = 7;
    const h0 = accountsHarness();
    const now = h0.clock.now().getTime();
    const { h, ids, remaining } = await withSessions([
      new Date(now - retentionDays * DAY_MS + 1_000),
      new Date(now - retentionDays * DAY_MS - 1),
      new Date(now - retentionDays * DAY_MS), // exactly at the cutoff: not "older than" it
      new Date(now + DAY_MS), // still active
    ]);
    const prune = new PruneExpiredSessions({ sessions: h.ports.sessions, clock: h.clock, settings: { retentionDays } });

    await expect(prune.execute()).resolves.toBe(1);
    expect(remaining()).toEqual([ids[0], ids[2], ids[3]]);

    h.clock.advance(1_001);
    await expect(prune.execute()).resolves.toBe(2);
    expect(remaining()).toEqual([ids[3]]);
  });

  it('deletes in bounded batches until a batch comes back short, and counts every row', async () => {
    const now = accountsHarness().clock.now().getTime();
    const { h, remaining } = await withSessions(Array.from({ length: 12 }, (_, i) => new Date(now - 30 * DAY_MS - i)));
    const batches: number[] = [];
    const counting: SessionStore = Object.assign(Object.create(h.ports.sessions) as SessionStore, {
      pruneExpiredBefore: async (cutoff: Date, batchSize: number) => {
        const deleted = await h.ports.sessions.pruneExpiredBefore(cutoff, batchSize);
        batches.push(deleted);
        return deleted;
      },
    });
    const prune = new PruneExpiredSessions({ sessions: counting, clock: h.clock, settings: { retentionDays: 7, batchSize: 5 } });

    await expect(prune.execute()).resolves.toBe(12);
    expect(batches).toEqual([5, 5, 2]);
    expect(remaining()).toEqual([]);
    await expect(prune.execute()).resolves.toBe(0);
  });

  it('stops after maxBatches and leaves the rest for the next run', async () => {
    const now = accountsHarness().clock.now().getTime();
    const { h, remaining } = await withSessions(Array.from({ length: 10 }, (_, i) => new Date(now - 30 * DAY_MS - i)));
    const prune = new PruneExpiredSessions({ sessions: h.ports.sessions, clock: h.clock, settings: { retentionDays: 7, batchSize: 3, maxBatches: 2 } });

    await expect(prune.execute()).resolves.toBe(6);
    expect(remaining()).toHaveLength(4);
  });
});
