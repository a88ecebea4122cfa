import { signInOf } from '../../test/builders/accounts';
import { describe, expect, it } from 'vitest';
import { mfaHarness } from '../../test/builders/mfa';
import { totpSecretContext } from './mfa-deps';

describe('SetupTotp + ConfirmTotp', () => {
  it('stores the secret sealed and unconfirmed, and turns MFA on with a current code', async () => {
    const h = mfaHarness();
    const user = await h.aUser({ email: 'ada@example.com' });
    const caller = await h.callerFor(user);
    const { secret, otpauthUrl } = await h.setup.execute(caller);

    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(otpauthUrl).toContain('issuer=tenantkit');
    const stored = h.store.userTotp.get(user.id)!;
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(h.mfaPorts.atRestEncryption.open(stored.sealed_secret, totpSecretContext(user.id))).toBe(secret);
    expect(stored.confirmed_at).toBeNull();

    const { recoveryCodes } = await h.confirm.execute(caller, { code: h.codeNow(secret, -1) });
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    const storedCodes = [...h.store.recoveryCodes.values()];
    expect(storedCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(JSON.stringify(storedCodes)).not.toContain(code.replace(/-/g, ''));
    expect(h.store.userTotp.get(user.id)?.confirmed_at).toEqual(h.clock.now());
  });

  it('replaces an unconfirmed setup, and refuses a new one while MFA is on', async () => {
    const h = mfaHarness();
    const user = await h.aUser();
    const caller = await h.callerFor(user);
    const first = await h.setup.execute(caller);
    const second = await h.setup.execute(caller);
    await expect(h.confirm.execute(caller, { code: h.codeNow(first.secret) })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    await h.confirm.execute(caller, { code: h.codeNow(second.secret) });
    await expect(h.setup.execute(caller)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(h.confirm.execute(caller, { code: h.codeNow(second.secret) })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses a confirmation without a setup, and wrong or out-of-window codes', async () => {
    const h = mfaHarness();
    const caller = await h.callerFor(await h.aUser());
    await expect(h.confirm.execute(caller, { code: '123456' })).rejects.toMatchObject({ code: 'CONFLICT' });
    const { secret } = await h.setup.execute(caller);
    for (const code of [h.codeNow(secret, 2), h.codeNow(secret, -2), 'abcdef', '']) {
      await expect(h.confirm.execute(caller, { code })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    }
    expect(h.store.userTotp.get(caller.userId)?.confirmed_at).toBeNull();
  });

  it("revokes the user's other sessions on confirmation and keeps the current one", async () => {
    const h = mfaHarness();
    const user = await h.aUser();
    const other = await h.callerFor(user);
    const { caller } = await h.enrol(user);
    await expect(h.authenticate.execute(other.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect([...h.store.sessions.values()].map((s) => s.id)).toEqual([caller.sessionId]);
  });
});

describe('DisableTotp', () => {
  it('needs the password of an account that has one', async () => {
    const h = mfaHarness();
    const user = await h.aUser({ password: 'correct horse' });
    const { caller } = await h.enrol(user);
    await expect(h.disable.execute(caller, {})).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { password: expect.any(String) } });
    await expect(h.disable.execute(caller, { password: 'wrong horse' })).rejects.toMatchObject({ code: 'INVALID_CURRENT_PASSWORD' });
    expect(h.store.userTotp.has(user.id)).toBe(true);
    await h.disable.execute(caller, { password: 'correct horse' });
    expect(h.store.userTotp.has(user.id)).toBe(false);
    expect(h.store.recoveryCodes.size).toBe(0);
  });

  it('needs a current, unused code from an account without a password', async () => {
    const h = mfaHarness();
    const user = await h.aUser();
    await h.ports.users.setPasswordHash(user.id, null);
    const { secret, caller } = await h.enrol(user);
    await expect(h.disable.execute(caller, { password: 'anything' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(h.disable.execute(caller, { code: h.codeNow(secret, -2) })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    // The confirming code's step (one step back now) was used: replaying it is refused.
    await expect(h.disable.execute(caller, { code: h.codeNow(secret, -1) })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    await h.disable.execute(caller, { code: h.codeNow(secret) });
    expect(h.store.userTotp.has(user.id)).toBe(false);
  });

  it('shares the login throttle: wrong passwords here close login, and a closed login closes this', async () => {
    const h = mfaHarness();
    const user = await h.aUser({ email: 'ada@example.com', password: 'correct horse' });
    const { caller } = await h.enrol(user);
    for (let i = 0; i < 5; i += 1) {
      await expect(h.disable.execute(caller, { password: `wrong ${i}` })).rejects.toMatchObject({ code: 'INVALID_CURRENT_PASSWORD' });
    }
    for (let i = 0; i < 5; i += 1) {
      await expect(h.login.execute({ email: 'ada@example.com', password: `wrong ${i}` })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    await expect(h.login.execute({ email: 'ada@example.com', password: 'correct horse' })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    // Even the right password is not looked at until the window passes.
    await expect(h.disable.execute(caller, { password: 'correct horse' })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(h.store.userTotp.has(user.id)).toBe(true);
    h.clock.advanceSeconds(900);
    await h.disable.execute(caller, { password: 'correct horse' });
    expect(h.store.userTotp.has(user.id)).toBe(false);
  });

  it("counts codes given without a password among the account's second-factor guesses", async () => {
    const h = mfaHarness();
    const user = await h.aUser();
    await h.ports.users.setPasswordHash(user.id, null);
    const { secret, caller } = await h.enrol(user);
    const wrong = h.codeNow(secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 10; i += 1) await expect(h.disable.execute(caller, { code: wrong })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    await expect(h.disable.execute(caller, { code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    await expect(h.signInCompletion.complete(signInOf(user))).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });

  it('clears an unconfirmed setup without asking, and is idempotent', async () => {
    const h = mfaHarness();
    const caller = await h.callerFor(await h.aUser());
    await h.disable.execute(caller, {});
    await h.setup.execute(caller);
    await h.disable.execute(caller, {});
    expect(h.store.userTotp.size).toBe(0);
  });
});
