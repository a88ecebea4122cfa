import { describe, expect, it } from 'vitest';
import { accountsHarness } from '../../test/builders/accounts';
import { Signup } from './signup.use-case';
import { VerifyEmail } from './verify-email.use-case';
import { ResendVerification } from './resend-verification.use-case';

async function signedUp() {
  const h = accountsHarness();
  const { userId } = await new Signup(h.deps).execute({ email: 'a@example.com', password: 'correct horse' });
  return { h, userId, token: await h.tokenFromEmail('a@example.com', '/verify-email') };
}

describe('VerifyEmail', () => {
  it('marks the email verified, once', async () => {
    const { h, userId, token } = await signedUp();
    const verify = new VerifyEmail(h.ports);
    await verify.execute({ token });
    expect((await h.ports.users.findById(userId))?.emailVerified).toBe(true);
    await expect(verify.execute({ token })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('accepts the token until one second before 24 h, refuses it at exactly 24 h', async () => {
    const early = await signedUp();
    early.h.clock.advanceSeconds(24 * 3600 - 1);
    await new VerifyEmail(early.h.ports).execute({ token: early.token });

    const late = await signedUp();
    late.h.clock.advanceSeconds(24 * 3600);
    await expect(new VerifyEmail(late.h.ports).execute({ token: late.token })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await late.h.ports.users.findById(late.userId))?.emailVerified).toBe(false);
  });

  it('refuses an unknown token and a reset token', async () => {
    const { h } = await signedUp();
    await expect(new VerifyEmail(h.ports).execute({ token: 'x'.repeat(43) })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });
});

describe('ResendVerification', () => {
  it('sends a fresh link and invalidates the previous one', async () => {
    const { h, token: first } = await signedUp();
    await new ResendVerification(h.deps).execute({ email: ' A@EXAMPLE.com' });
    const second = await h.tokenFromEmail('a@example.com', '/verify-email');
    expect(second).not.toBe(first);
    await expect(new VerifyEmail(h.ports).execute({ token: first })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await new VerifyEmail(h.ports).execute({ token: second });
  });

  it('does nothing, silently, for unknown or already verified accounts', async () => {
    const { h, token } = await signedUp();
    await new VerifyEmail(h.ports).execute({ token });
    const before = (await h.outbox.pending()).length;
    await new ResendVerification(h.deps).execute({ email: 'a@example.com' });
    await new ResendVerification(h.deps).execute({ email: 'nobody@example.com' });
    expect(await h.outbox.pending()).toHaveLength(before);
  });
});
