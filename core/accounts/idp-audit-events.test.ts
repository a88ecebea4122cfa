import { describe, expect, it } from 'vitest';
import { idpHarness } from '../../test/builders/idp';

const ORIGIN = { userAgent: 'Edge/140', ip: '198.51.100.7' };

describe('audit events of identity-provider sign-ins', () => {
  it('a sign-in records login.succeeded with method idp, in the same transaction as the account it resolved', async () => {
    const h = idpHarness();
    const result = await h.signIn({ origin: ORIGIN });
    if (!result.ok || result.kind !== 'session') throw new Error('expected a session');
    const user = await h.ports.users.findById(result.userId);
    expect(await h.auditLog.recorded()).toMatchObject([
      {
        organizationId: user!.organizationId,
        action: 'login.succeeded',
        actor: { type: 'user', id: result.userId, email: user!.email },
        target: { type: 'session', id: String(result.session.sessionId) },
        origin: { ip: ORIGIN.ip, userAgent: ORIGIN.userAgent },
        details: { method: 'idp' },
      },
    ]);
  });

  it('an event that fails to insert undoes the whole sign-in: no account, no link, no session', async () => {
    const h = idpHarness();
    h.auditLog.failNextRecord();
    const result = await h.signIn();
    expect(result).toMatchObject({ ok: false, reason: 'oauth_failed' });
    expect([...h.store.users.values()]).toEqual([]);
    expect([...h.store.sessions.values()]).toEqual([]);
    expect(await h.auditLog.recorded()).toEqual([]);
  });

  it("a suspended account's sign-in records login.failed in its organization", async () => {
    const h = idpHarness();
    const first = await h.signIn();
    if (!first.ok) throw new Error('expected a sign-in');
    const user = (await h.ports.users.findById(first.userId))!;
    await h.ports.users.setStatus(user.organizationId, user.id, 'suspended');
    await expect(h.signIn({ origin: ORIGIN })).resolves.toMatchObject({ ok: false });
    await h.failedSignIns.flush();
    expect((await h.auditLog.recorded()).at(-1)).toMatchObject({
      organizationId: user.organizationId,
      action: 'login.failed',
      actor: { id: user.id },
      origin: { ip: ORIGIN.ip },
      details: { method: 'idp', reason: 'account_suspended' },
    });
  });
});
