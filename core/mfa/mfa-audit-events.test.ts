import { describe, expect, it } from 'vitest';
import { mfaHarness } from '../../test/builders/mfa';
import { TEST_ORIGIN } from '../../test/builders/accounts';

const PASSWORD = 'password-123';
const ORIGIN = { userAgent: 'Safari/18', ip: '192.0.2.44' };

async function enrolled() {
  const h = mfaHarness();
  const user = await h.aUser({ email: 'ada@example.com', password: PASSWORD });
  const recorded = async () => {
    await h.failedSignIns.flush();
    return h.auditLog.recorded();
  };
  return { h, user, recorded };
}

async function challenge(h: ReturnType<typeof mfaHarness>) {
  const outcome = await h.login.execute({ email: 'ada@example.com', password: PASSWORD, origin: ORIGIN });
  if (outcome.kind !== 'mfa_required') throw new Error('expected a challenge');
  return outcome.challenge.token;
}

describe('audit events of two-factor authentication', () => {
  it('confirming TOTP records mfa.enabled (never the secret or the codes); a failed event leaves MFA off', async () => {
    const { h, user, recorded } = await enrolled();
    const caller = await h.callerFor(user);
    const { secret } = await h.setup.execute(caller);
    h.auditLog.failNextRecord();
    await expect(h.confirm.execute(caller, { code: h.codeNow(secret) })).rejects.toThrow();
    expect((await h.mfaPorts.mfa.findTotp(user.id))?.confirmedAt).toBeNull();
    const { recoveryCodes } = await h.confirm.execute(caller, { code: h.codeNow(secret) });
    const events = await recorded();
    expect(events.at(-1)).toMatchObject({ action: 'mfa.enabled', actor: { id: user.id }, origin: TEST_ORIGIN, details: { factor: 'totp' } });
    const stored = JSON.stringify(events);
    for (const code of [secret, h.codeNow(secret), ...recoveryCodes]) expect(stored).not.toContain(code);
  });

  it('a password login of an enrolled user records nothing until the second factor; then login.succeeded names the factor', async () => {
    const { h, user, recorded } = await enrolled();
    const { secret } = await h.enrol(user);
    const before = (await recorded()).length;
    const token = await challenge(h);
    expect(await recorded()).toHaveLength(before);
    const { session } = await h.verify.execute({ challengeToken: token, code: h.codeNow(secret), origin: ORIGIN });
    expect((await recorded()).slice(before)).toMatchObject([
      { action: 'login.succeeded', target: { type: 'session', id: String(session.sessionId) }, origin: { ip: ORIGIN.ip }, details: { method: 'totp' } },
    ]);
  });

  it('a recovery code records mfa.recovery_code_used with the sign-in, never the code', async () => {
    const { h, user, recorded } = await enrolled();
    const { recoveryCodes } = await h.enrol(user);
    const before = (await recorded()).length;
    await h.verify.execute({ challengeToken: await challenge(h), recoveryCode: recoveryCodes[3]!, origin: ORIGIN });
    const events = (await recorded()).slice(before);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['mfa.recovery_code_used', {}],
      ['login.succeeded', { method: 'recovery_code' }],
    ]);
    expect(JSON.stringify(events)).not.toContain(recoveryCodes[3]!);
  });

  it('an event that fails to insert leaves the recovery code unused and the challenge open', async () => {
    const { h, user } = await enrolled();
    const { recoveryCodes } = await h.enrol(user);
    const token = await challenge(h);
    h.auditLog.failNextRecord();
    await expect(h.verify.execute({ challengeToken: token, recoveryCode: recoveryCodes[0]! })).rejects.toThrow('audit insert failed');
    await expect(h.verify.execute({ challengeToken: token, recoveryCode: recoveryCodes[0]! })).resolves.toMatchObject({ userId: user.id });
  });

  it('a wrong code records login.failed with the factor and the reason', async () => {
    const { h, user, recorded } = await enrolled();
    await h.enrol(user);
    const before = (await recorded()).length;
    await expect(h.verify.execute({ challengeToken: await challenge(h), code: '000000', origin: ORIGIN })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    expect((await recorded()).slice(before)).toMatchObject([
      { action: 'login.failed', actor: { id: user.id }, origin: { ip: ORIGIN.ip }, details: { method: 'totp', reason: 'invalid_mfa_code' } },
    ]);
  });

  it('disabling records mfa.disabled with the proof used; a failed event keeps MFA on', async () => {
    const { h, user, recorded } = await enrolled();
    const { caller } = await h.enrol(user);
    h.auditLog.failNextRecord();
    await expect(h.disable.execute(caller, { password: PASSWORD })).rejects.toThrow();
    expect((await h.mfaPorts.mfa.findTotp(user.id))?.confirmedAt).not.toBeNull();
    await h.disable.execute(caller, { password: PASSWORD });
    const events = await recorded();
    expect(events.at(-1)).toMatchObject({ action: 'mfa.disabled', actor: { id: user.id }, origin: TEST_ORIGIN, details: { factor: 'totp', proof: 'password' } });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('clearing an unconfirmed setup, or a wrong password, records no mfa.disabled', async () => {
    const { h, user, recorded } = await enrolled();
    const caller = await h.callerFor(user);
    await h.setup.execute(caller);
    await h.disable.execute(caller, {});
    await h.enrol(user);
    await expect(h.disable.execute(caller, { password: 'not the password' })).rejects.toMatchObject({ code: 'INVALID_CURRENT_PASSWORD' });
    expect((await recorded()).filter((e) => e.action === 'mfa.disabled')).toEqual([]);
  });
});
