import { describe, expect, it } from 'vitest';
import { PASSKEY_ORIGIN, passkeysHarness, type PasskeysHarness } from '../../test/builders/passkeys';
import { SoftwareAuthenticator, type Tampering } from '../../test/fakes/software-authenticator';

async function signIn(h: PasskeysHarness, authenticator: SoftwareAuthenticator, tampering: Tampering = {}) {
  const started = await h.startLogin.execute();
  return h.loginWithPasskey.execute({ cookieToken: started.cookieToken, response: authenticator.assert(started.options, tampering) });
}

describe('passkey registration', () => {
  it('offers a fresh 32-byte challenge, an opaque user handle, the caller\'s passkeys excluded, UV and resident key required, ES256 and RS256', async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    await h.enrolPasskey(user);
    const options = await h.startRegistration.execute(await h.callerFor(user));

    expect(Buffer.from(options.challenge as string, 'base64url')).toHaveLength(32);
    const handle = (options.user as { id: string }).id;
    expect(Buffer.from(handle, 'base64url')).toHaveLength(32);
    expect(Buffer.from(handle, 'base64url').toString('latin1')).not.toContain(user.email);
    expect(options.excludeCredentials).toHaveLength(1);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect((options.pubKeyCredParams as Array<{ alg: number }>).map((p) => p.alg)).toEqual([-7, -257]);
    expect(options.attestation).toBe('none');
  });

  it('stores the public key with a default name and lists it', async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    await h.enrolPasskey(user);
    const [passkey] = await h.list.execute(await h.callerFor(user));

    expect(passkey).toMatchObject({ userId: user.id, name: `Passkey ${h.clock.now().toISOString().slice(0, 10)}`, counter: 0, deviceType: 'single_device', transports: ['internal'] });
  });

  it.each<[string, Tampering]>([
    ['a wrong origin', { origin: 'https://evil.example' }],
    ['no user verification', { withoutUserVerification: true }],
    ['another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2UtYnV0LTMyLWJ5dGVzLWxvbmchIQ' }],
  ])('refuses a response with %s', async (_, tampering) => {
    const h = passkeysHarness();
    const caller = await h.callerFor(await h.aUser());
    const options = await h.startRegistration.execute(caller);
    const response = new SoftwareAuthenticator(PASSKEY_ORIGIN).register(options, tampering);

    await expect(h.register.execute(caller, { response })).rejects.toMatchObject({ code: 'INVALID_PASSKEY_RESPONSE' });
  });

  it("uses the challenge once, and only for the session that asked for it", async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    const caller = await h.callerFor(user);
    const other = await h.callerFor(user);
    const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
    const options = await h.startRegistration.execute(caller);

    await expect(h.register.execute(other, { response: authenticator.register(options) })).rejects.toMatchObject({ code: 'INVALID_PASSKEY_RESPONSE' });
    await h.register.execute(caller, { response: authenticator.register(options) });
    await expect(h.register.execute(caller, { response: authenticator.register(options) })).rejects.toMatchObject({ code: 'INVALID_PASSKEY_RESPONSE' });
  });

  it('refuses a challenge older than 5 minutes', async () => {
    const h = passkeysHarness();
    const caller = await h.callerFor(await h.aUser());
    const options = await h.startRegistration.execute(caller);
    h.clock.advanceSeconds(301);

    await expect(h.register.execute(caller, { response: new SoftwareAuthenticator(PASSKEY_ORIGIN).register(options) })).rejects.toMatchObject({ code: 'INVALID_PASSKEY_RESPONSE' });
  });

  it('refuses a credential id already registered, to anyone', async () => {
    const h = passkeysHarness();
    const { authenticator } = await h.enrolPasskey(await h.aUser());
    const other = await h.callerFor(await h.aUser());
    const response = authenticator.register(await h.startRegistration.execute(other), { reuseCredential: true });

    await expect(h.register.execute(other, { response })).rejects.toMatchObject({ code: 'INVALID_PASSKEY_RESPONSE' });
  });
});

describe('passkey sign-in', () => {
  it('signs in a user who has TOTP on without a TOTP step', async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    await h.enrol(user);
    const { authenticator } = await h.enrolPasskey(user);

    const { userId, session } = await signIn(h, authenticator);

    expect(userId).toBe(user.id);
    expect(await h.authenticate.execute(session.token)).toMatchObject({ userId: user.id });
  });

  it("a passkey-only user's passkey session meets require_mfa", async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    const { authenticator } = await h.enrolPasskey(user);
    await h.ports.organizations.updateSettings(user.organizationId, { requireMfa: true });

    const { session } = await signIn(h, authenticator);

    expect(await h.authenticate.execute(session.token)).toMatchObject({ userId: user.id, mfaSatisfied: true });
  });

  it("a password session of a passkey-only user does not meet require_mfa", async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    await h.enrolPasskey(user);
    await h.ports.organizations.updateSettings(user.organizationId, { requireMfa: true });

    expect(await h.callerFor(user)).toMatchObject({ mfaSatisfied: false });
  });

  it('stores the signature counter and the time of use', async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    const { authenticator } = await h.enrolPasskey(user);
    await signIn(h, authenticator);
    await signIn(h, authenticator);

    expect((await h.list.execute(await h.callerFor(user)))[0]).toMatchObject({ counter: 2, lastUsedAt: h.clock.now() });
  });

  it.each<[string, Tampering]>([
    ['a wrong origin', { origin: 'https://evil.example' }],
    ['no user verification', { withoutUserVerification: true }],
    ['a counter that went backwards', { counter: 1 }],
    ['another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2UtYnV0LTMyLWJ5dGVzLWxvbmchIQ' }],
  ])('refuses an assertion with %s: INVALID_CREDENTIALS', async (_, tampering) => {
    const h = passkeysHarness();
    const { authenticator } = await h.enrolPasskey(await h.aUser());
    await signIn(h, authenticator);
    await signIn(h, authenticator);

    await expect(signIn(h, authenticator, tampering)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('refuses a replayed challenge, an expired one, a missing cookie and an unknown credential', async () => {
    const h = passkeysHarness();
    const { authenticator } = await h.enrolPasskey(await h.aUser());
    const started = await h.startLogin.execute();
    await h.loginWithPasskey.execute({ cookieToken: started.cookieToken, response: authenticator.assert(started.options) });

    await expect(h.loginWithPasskey.execute({ cookieToken: started.cookieToken, response: authenticator.assert(started.options) })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const late = await h.startLogin.execute();
    h.clock.advanceSeconds(301);
    await expect(h.loginWithPasskey.execute({ cookieToken: late.cookieToken, response: authenticator.assert(late.options) })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const fresh = await h.startLogin.execute();
    await expect(h.loginWithPasskey.execute({ cookieToken: undefined, response: authenticator.assert(fresh.options) })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const stranger = new SoftwareAuthenticator(PASSKEY_ORIGIN);
    stranger.register({ rp: { id: 'app.example.test' }, user: { id: 'aGFuZGxl' }, challenge: 'eA' });
    const again = await h.startLogin.execute();
    await expect(h.loginWithPasskey.execute({ cookieToken: again.cookieToken, response: stranger.assert(again.options) })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it("counts a known credential's failures against its account, refuses it before verifying once they fill the window, and clears them on a completed sign-in", async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    const { authenticator } = await h.enrolPasskey(user);

    for (let i = 0; i < 9; i += 1) await expect(signIn(h, authenticator, { withoutUserVerification: true })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await signIn(h, authenticator);
    for (let i = 0; i < 10; i += 1) await expect(signIn(h, authenticator, { withoutUserVerification: true })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });

    await expect(signIn(h, authenticator)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    await expect(h.throttle.assertOpen(user.email)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });

  it('tells a suspended account only after the passkey verified', async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    const { authenticator } = await h.enrolPasskey(user);
    await h.ports.users.setStatus(user.organizationId, user.id, 'suspended');

    await expect(signIn(h, authenticator)).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
  });

  it('a deleted passkey no longer signs in; renaming and deleting touch only the caller\'s own', async () => {
    const h = passkeysHarness();
    const user = await h.aUser();
    const { authenticator, passkeyId } = await h.enrolPasskey(user);
    const stranger = await h.callerFor(await h.aUser());
    const owner = await h.callerFor(user);

    await expect(h.rename.execute(stranger, { passkeyId, name: 'mine' })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await expect(h.remove.execute(stranger, { passkeyId })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(await h.rename.execute(owner, { passkeyId, name: 'Laptop' })).toMatchObject({ name: 'Laptop' });
    await h.remove.execute(owner, { passkeyId });
    await expect(signIn(h, authenticator)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });
});
