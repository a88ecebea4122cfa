import { describe, expect, it } from 'vitest';
import { passkeysHarness, PASSKEY_ORIGIN, type PasskeysHarness } from '../../test/builders/passkeys';
import { TEST_ORIGIN } from '../../test/builders/accounts';
import { SoftwareAuthenticator, type Tampering } from '../../test/fakes/software-authenticator';

const ORIGIN = { userAgent: 'Chrome/142', ip: '203.0.113.99' };

async function signIn(h: PasskeysHarness, authenticator: SoftwareAuthenticator, tampering: Tampering = {}) {
  const started = await h.startLogin.execute();
  return h.loginWithPasskey.execute({ cookieToken: started.cookieToken, response: authenticator.assert(started.options, tampering), origin: ORIGIN });
}

async function world() {
  const h = passkeysHarness();
  const user = await h.aUser({ email: 'ada@example.com' });
  const recorded = async () => {
    await h.failedSignIns.flush();
    return h.auditLog.recorded();
  };
  return { h, user, recorded };
}

describe('audit events of passkeys', () => {
  it('registering records passkey.added with the passkey; nothing secret, and no passkey when the event fails', async () => {
    const { h, user, recorded } = await world();
    const caller = await h.callerFor(user);
    const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
    h.auditLog.failNextRecord();
    await expect(h.register.execute(caller, { response: authenticator.register(await h.startRegistration.execute(caller)) })).rejects.toThrow();
    expect(await h.list.execute(caller)).toEqual([]);
    const passkey = await h.register.execute(caller, { response: authenticator.register(await h.startRegistration.execute(caller)), name: 'Work laptop' });
    expect((await recorded()).at(-1)).toMatchObject({
      action: 'passkey.added',
      actor: { type: 'user', id: user.id },
      target: { type: 'passkey', id: String(passkey.id) },
      origin: TEST_ORIGIN,
      details: { name: 'Work laptop', device_type: passkey.deviceType, backed_up: passkey.backedUp },
    });
  });

  it('deleting records passkey.removed; a failed event keeps the passkey, an unknown id records nothing', async () => {
    const { h, user, recorded } = await world();
    const { passkeyId } = await h.enrolPasskey(user);
    const caller = await h.callerFor(user);
    h.auditLog.failNextRecord();
    await expect(h.remove.execute(caller, { passkeyId })).rejects.toThrow();
    expect(await h.list.execute(caller)).toHaveLength(1);
    await expect(h.remove.execute(caller, { passkeyId: passkeyId + 100 })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await h.remove.execute(caller, { passkeyId });
    expect((await recorded()).filter((e) => e.action === 'passkey.removed')).toMatchObject([{ target: { type: 'passkey', id: String(passkeyId) } }]);
  });

  it('a passkey sign-in records login.succeeded with method passkey', async () => {
    const { h, user, recorded } = await world();
    const { authenticator } = await h.enrolPasskey(user);
    const { session } = await signIn(h, authenticator);
    expect((await recorded()).at(-1)).toMatchObject({
      action: 'login.succeeded',
      actor: { id: user.id },
      target: { type: 'session', id: String(session.sessionId) },
      origin: { ip: ORIGIN.ip, userAgent: ORIGIN.userAgent },
      details: { method: 'passkey' },
    });
  });

  it("a failed assertion of a registered credential records login.failed in its owner's organization", async () => {
    const { h, user, recorded } = await world();
    const { authenticator } = await h.enrolPasskey(user);
    await expect(signIn(h, authenticator, { withoutUserVerification: true })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await h.ports.users.setStatus(user.organizationId, user.id, 'suspended');
    await expect(signIn(h, authenticator)).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    const failures = (await recorded()).filter((e) => e.action === 'login.failed');
    expect(failures.map((e) => [e.organizationId, e.actor.id, e.details])).toEqual([
      [user.organizationId, user.id, { method: 'passkey', reason: 'invalid_credentials' }],
      [user.organizationId, user.id, { method: 'passkey', reason: 'account_suspended' }],
    ]);
  });

  it('an unknown credential belongs to no account: nothing is written', async () => {
    const { h, user, recorded } = await world();
    const stranger = new SoftwareAuthenticator(PASSKEY_ORIGIN);
    // A credential the authenticator made but the service never stored.
    stranger.register(await h.startRegistration.execute(await h.callerFor(user)));
    const before = (await recorded()).length;
    await expect(signIn(h, stranger)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await recorded()).toHaveLength(before);
  });
});
