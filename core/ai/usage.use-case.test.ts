import { describe, expect, it } from 'vitest';
import { aiHarness, readAll, type AiHarness } from '../../test/builders/ai';
import type { UserCaller } from '../access/caller';
import { GetUsageSummary } from './get-usage-summary.use-case';
import { ListTopUsers } from './list-top-users.use-case';
import { ListUsageHistory } from './list-usage-history.use-case';
import { GetSystemSettings } from './get-system-settings.use-case';
import { UpdateSystemSettings } from './update-system-settings.use-case';

/** One finished call by `caller` that used `input` + `output` tokens, a minute after the previous one. */
async function aCall(h: AiHarness, caller: UserCaller, input: number, output: number) {
  h.clock.advance(60_000);
  h.model.script({ usage: { inputTokens: input, outputTokens: output } });
  const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
  await readAll(call.chunks());
  return (await call.settled())!;
}

describe('GetUsageSummary', () => {
  it("gives the period, the token_limit, the organization's allotment used, credits, overage and the caller's own tokens", async () => {
    const h = aiHarness();
    const alice = await h.anAiCaller({ tokenLimit: 1_000 });
    const bob = await h.aCaller('member', alice.organizationId);
    await h.giveCredits(alice.organizationId, 10_000);
    await aCall(h, alice, 300, 400);
    await aCall(h, bob, 200, 300);
    const summary = await new GetUsageSummary(h.aiDeps).execute(alice);
    expect(summary).toEqual({
      period: { start: new Date('2026-11-05T08:00:00.000Z'), end: new Date('2026-12-05T08:00:00.000Z') },
      tokenLimit: 1_000,
      allotmentUsed: 1_000,
      // Bob's call used 500: 300 of the allotment was left, 200 came from credits.
      creditBalance: 9_800,
      overageTokens: 0,
      myTokens: 700,
    });
    expect((await new GetUsageSummary(h.aiDeps).execute(bob)).myTokens).toBe(500);
  });

  it('refuses a readonly caller', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ role: 'readonly' });
    await expect(new GetUsageSummary(h.aiDeps).execute(caller)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});

describe('ListUsageHistory', () => {
  it("shows a member only their own calls, newest first, and an org_admin the whole organization's", async () => {
    const h = aiHarness();
    const admin = await h.anAiCaller({ role: 'org_admin' });
    const member = await h.aCaller('member', admin.organizationId);
    const stranger = await h.anAiCaller();
    const a1 = await aCall(h, admin, 10, 10);
    const m1 = await aCall(h, member, 20, 20);
    const m2 = await aCall(h, member, 30, 30);
    await aCall(h, stranger, 40, 40);
    const history = new ListUsageHistory(h.aiDeps);
    expect((await history.execute(member, { limit: 100 })).items.map((record) => record.id)).toEqual([m2.id, m1.id]);
    expect((await history.execute(admin, { limit: 100 })).items.map((record) => record.id)).toEqual([m2.id, m1.id, a1.id]);
  });

  it('pages with a cursor, each page after the last item of the one before', async () => {
    const h = aiHarness();
    const admin = await h.anAiCaller({ role: 'org_admin' });
    const records = [];
    for (let i = 0; i < 5; i += 1) records.push(await aCall(h, admin, 10, i));
    const history = new ListUsageHistory(h.aiDeps);
    const first = await history.execute(admin, { limit: 2 });
    const second = await history.execute(admin, { limit: 2, cursor: first.nextCursor! });
    const last = await history.execute(admin, { limit: 2, cursor: second.nextCursor! });
    expect([first, second, last].map((page) => page.items.map((record) => record.id))).toEqual([
      [records[4]!.id, records[3]!.id],
      [records[2]!.id, records[1]!.id],
      [records[0]!.id],
    ]);
    expect(last.nextCursor).toBeNull();
    await expect(history.execute(admin, { limit: 2, cursor: 'not-a-cursor!' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { cursor: expect.any(String) } });
  });
});

describe('ListUsageHistory refusals', () => {
  it('refuses a readonly caller', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ role: 'readonly' });
    await expect(Promise.resolve().then(() => new ListUsageHistory(h.aiDeps).execute(caller, { limit: 100 }))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});

describe('ListTopUsers', () => {
  it('lists the heaviest users of the period, most tokens first, with their emails (org_admin)', async () => {
    const h = aiHarness();
    const admin = await h.anAiCaller({ role: 'org_admin' });
    const light = await h.aCaller('member', admin.organizationId);
    const heavy = await h.aCaller('member', admin.organizationId);
    await aCall(h, light, 10, 10);
    await aCall(h, heavy, 100, 100);
    await aCall(h, heavy, 100, 100);
    await aCall(h, admin, 50, 50);
    const top = await new ListTopUsers(h.aiDeps).execute(admin);
    const email = async (caller: UserCaller) => (await h.ports.users.findById(caller.userId))!.email;
    expect(top).toEqual([
      { userId: heavy.userId, email: await email(heavy), tokens: 400 },
      { userId: admin.userId, email: await email(admin), tokens: 100 },
      { userId: light.userId, email: await email(light), tokens: 20 },
    ]);
  });

  it('refuses a member', async () => {
    const h = aiHarness();
    await expect(new ListTopUsers(h.aiDeps).execute(await h.anAiCaller())).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});

describe('system settings', () => {
  it('are read and changed by a sys_admin only', async () => {
    const h = aiHarness();
    const orgAdmin = await h.aCaller('org_admin');
    // GetSystemSettings is not async: its refusal is thrown, which an awaiting caller sees as a rejection.
    await expect(Promise.resolve().then(() => new GetSystemSettings(h.aiDeps).execute(orgAdmin))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(new UpdateSystemSettings(h.aiDeps).execute(orgAdmin, { aiOverageEnabled: true })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await h.systemSettings.get()).toEqual({ aiOverageEnabled: false });
  });

  it('start off, and a change is applied and logged with who made it', async () => {
    const h = aiHarness();
    const sysAdmin = await h.aCaller('sys_admin');
    expect(await new GetSystemSettings(h.aiDeps).execute(sysAdmin)).toEqual({ aiOverageEnabled: false });
    expect(await new UpdateSystemSettings(h.aiDeps).execute(sysAdmin, { aiOverageEnabled: true })).toEqual({ aiOverageEnabled: true });
    expect(await new GetSystemSettings(h.aiDeps).execute(sysAdmin)).toEqual({ aiOverageEnabled: true });
    expect(h.logger.lines).toContainEqual({
      level: 'info',
      fields: { user_id: sysAdmin.userId, organization_id: sysAdmin.organizationId, changes: { aiOverageEnabled: true } },
      message: 'system settings changed',
    });
  });

  it('an empty change keeps every switch', async () => {
    const h = aiHarness();
    const sysAdmin = await h.aCaller('sys_admin');
    await new UpdateSystemSettings(h.aiDeps).execute(sysAdmin, { aiOverageEnabled: true });
    expect(await new UpdateSystemSettings(h.aiDeps).execute(sysAdmin, {})).toEqual({ aiOverageEnabled: true });
  });
});
