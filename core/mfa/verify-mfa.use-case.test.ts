import { signInOf } from '../../test/builders/accounts';
import { describe, expect, it } from 'vitest';
import { mfaHarness } from '../../test/builders/mfa';

const PASSWORD = 'correct horse';

async function enrolled() {
  const h = mfaHarness();
  const user = await h.aUser({ email: 'ada@example.com', password: PASSWORD });
  const enrolment = await h.enrol(user);
  const challenge = async () => {
    const outcome = await h.login.execute({ email: 'ada@example.com', password: PASSWORD });
    if (outcome.kind !== 'mfa_required') throw new Error('expected a challenge');
    return outcome.challenge.token;
  };
  return { h, user, ...enrolment, challenge };
}

describe('Login with a second factor', () => {
  it('answers a correct password with a challenge, not a session, storing only its hash', async () => {
    const { h, user } = await enrolled();
    const sessionsBefore = h.store.sessions.size;
    const outcome = await h.login.execute({ email: 'ada@example.com', password: PASSWORD });
    expect(outcome).toMatchObject({ kind: 'mfa_required', userId: user.id, challenge: { token: expect.stringMatching(/^[\w-]{43}$/) } });
    if (outcome.kind !== 'mfa_required') return;
    expect(outcome.challenge.expiresAt.getTime() - h.clock.now().getTime()).toBe(300_000);
    expect(h.store.sessions.size).toBe(sessionsBefore);
    expect(JSON.stringify([...h.store.mfaChallenges.values()])).not.toContain(outcome.challenge.token);
  });

  it('still answers a wrong password with INVALID_CREDENTIALS and no challenge', async () => {
    const { h } = await enrolled();
    await expect(h.login.execute({ email: 'ada@example.com', password: 'wrong horse' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(h.store.mfaChallenges.size).toBe(0);
  });
});

describe('VerifyMfa', () => {
  it('turns the challenge into a session with a current code, once', async () => {
    const { h, user, secret, challenge } = await enrolled();
    const token = await challenge();
    const result = await h.verify.execute({ challengeToken: token, code: h.codeNow(secret) });
    expect(result.userId).toBe(user.id);
    await expect(h.authenticate.execute(result.session.token)).resolves.toMatchObject({ userId: user.id, mfaSatisfied: true });
    // The challenge is spent, and the code's step too.
    await expect(h.verify.execute({ challengeToken: token, code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(h.verify.execute({ challengeToken: await challenge(), code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
  });

  it('accepts each recovery code once, however it is typed', async () => {
    const { h, recoveryCodes, challenge } = await enrolled();
    const [first, second] = recoveryCodes as [string, string];
    await expect(h.verify.execute({ challengeToken: await challenge(), recoveryCode: first })).resolves.toBeDefined();
    await expect(h.verify.execute({ challengeToken: await challenge(), recoveryCode: first })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    const typed = ` ${second.toUpperCase().replace(/-/g, ' ')} `;
    await expect(h.verify.execute({ challengeToken: await challenge(), recoveryCode: typed })).resolves.toBeDefined();
    await expect(h.mfaPorts.mfa.countUnusedRecoveryCodes(1)).resolves.toBe(8);
  });

  it('voids the challenge after five wrong codes, even with the right one next', async () => {
    const { h, secret, challenge } = await enrolled();
    const token = await challenge();
    for (let i = 0; i < 5; i += 1) {
      await expect(h.verify.execute({ challengeToken: token, code: '000000' === h.codeNow(secret) ? '111111' : '000000' })).rejects.toMatchObject({
        code: 'INVALID_MFA_CODE',
      });
    }
    await expect(h.verify.execute({ challengeToken: token, code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('never gives more than five tries to concurrent guesses', async () => {
    const { h, secret, challenge } = await enrolled();
    const token = await challenge();
    const wrong = h.codeNow(secret) === '000000' ? '111111' : '000000';
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => h.verify.execute({ challengeToken: token, code: wrong })));
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === 'INVALID_MFA_CODE')).toHaveLength(5);
    expect(codes.filter((c) => c === 'UNAUTHORIZED')).toHaveLength(15);
  });

  it('refuses an expired challenge, an unknown one and a missing cookie alike', async () => {
    const { h, secret, challenge } = await enrolled();
    const token = await challenge();
    h.clock.advanceSeconds(300);
    for (const challengeToken of [token, h.ports.tokenGenerator.generate(), undefined, 'short']) {
      await expect(h.verify.execute({ challengeToken, code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('counts wrong codes against the account: ten close the login for that email', async () => {
    const { h, secret, challenge } = await enrolled();
    const wrong = () => (h.codeNow(secret) === '000000' ? '111111' : '000000');
    for (let i = 0; i < 10; i += 1) {
      await expect(h.verify.execute({ challengeToken: await challenge(), code: wrong() })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    }
    await expect(h.login.execute({ email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });

  it('bounds guesses per account, not per challenge: 40 challenges give 10 wrong codes in all, then 429s', async () => {
    const { h, user, secret, challenge } = await enrolled();
    const wrong = () => (h.codeNow(secret) === '000000' ? '111111' : '000000');
    // A stolen password typed 40 times (a correct password is no failure): 40 challenges, 5 tries each.
    const tokens = [];
    for (let i = 0; i < 40; i += 1) tokens.push(await challenge());
    const outcomes: string[] = [];
    for (const token of tokens.slice(0, 39)) {
      for (let i = 0; i < 5; i += 1) {
        outcomes.push(await h.verify.execute({ challengeToken: token, code: wrong() }).then(() => 'session', (e: { code: string }) => e.code));
      }
    }
    expect(outcomes.filter((o) => o === 'INVALID_MFA_CODE')).toHaveLength(10);
    expect(outcomes.slice(10).every((o) => o === 'TOO_MANY_ATTEMPTS')).toBe(true);
    // No new challenge while the window is full (whichever first factor asks), and the right code on an untouched one is refused too.
    const fresh = await h.signInCompletion.complete(signInOf(user)).catch((e: { code: string; details: unknown }) => e);
    expect(fresh).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', details: { retry_after: 900 } });
    await expect(h.verify.execute({ challengeToken: tokens[39]!, code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    h.clock.advanceSeconds(899);
    await expect(h.login.execute({ email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    h.clock.advanceSeconds(1);
    await expect(h.verify.execute({ challengeToken: await challenge(), code: h.codeNow(secret) })).resolves.toMatchObject({ userId: user.id });
  });

  it('never gives more than ten guesses to concurrent codes on many challenges, recovery codes included', async () => {
    const { h, secret, challenge } = await enrolled();
    const tokens = [];
    for (let i = 0; i < 40; i += 1) tokens.push(await challenge());
    const wrong = h.codeNow(secret) === '000000' ? '111111' : '000000';
    const results = await Promise.allSettled(
      tokens.flatMap((token, i) =>
        Array.from({ length: 5 }, () => h.verify.execute(i % 2 ? { challengeToken: token, code: wrong } : { challengeToken: token, recoveryCode: 'aaaaa-bbbbb' })),
      ),
    );
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === 'INVALID_MFA_CODE')).toHaveLength(10);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(190);
  });

  it('clears the account\'s count when a code is accepted', async () => {
    const { h, user, secret, challenge } = await enrolled();
    const wrong = () => (h.codeNow(secret) === '000000' ? '111111' : '000000');
    for (let i = 0; i < 9; i += 1) await h.verify.execute({ challengeToken: await challenge(), code: wrong() }).catch(() => undefined);
    await h.verify.execute({ challengeToken: await challenge(), code: h.codeNow(secret) });
    h.clock.advanceSeconds(30);
    for (let i = 0; i < 9; i += 1) {
      await expect(h.verify.execute({ challengeToken: await challenge(), code: wrong() })).rejects.toMatchObject({ code: 'INVALID_MFA_CODE' });
    }
    await expect(h.verify.execute({ challengeToken: await challenge(), code: h.codeNow(secret) })).resolves.toMatchObject({ userId: user.id });
  });

  it('voids a challenge whose user turned MFA off or was suspended meanwhile', async () => {
    const { h, user, secret, caller, challenge } = await enrolled();
    const token = await challenge();
    await h.ports.users.setStatus(user.organizationId, user.id, 'suspended');
    await expect(h.verify.execute({ challengeToken: token, code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await h.ports.users.setStatus(user.organizationId, user.id, 'active');
    const next = await challenge();
    await h.disable.execute(caller, { password: PASSWORD });
    await expect(h.verify.execute({ challengeToken: next, code: h.codeNow(secret) })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('revokes the session the browser presented', async () => {
    const { h, user, secret, challenge } = await enrolled();
    const old = await h.callerFor(user);
    await h.verify.execute({ challengeToken: await challenge(), code: h.codeNow(secret), presentedToken: old.token });
    await expect(h.authenticate.execute(old.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
