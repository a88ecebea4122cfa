import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { accountsHarness, sessionLogin } from '../../test/builders/accounts';
import { DomainError } from '../shared/domain-error';

const PASSWORD = 'correct horse';

describe('per-account login throttling', () => {
  it('refuses an email for the rest of the window after 10 failures, from any IP, then opens again', async () => {
    const h = accountsHarness();
    await h.aUser({ email: 'ada@example.com', password: PASSWORD });
    const login = sessionLogin(h);
    for (let i = 0; i < 10; i += 1) {
      h.clock.advanceSeconds(60);
      await expect(login.execute({ email: 'ada@example.com', password: 'wrong' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    // Ten failures over nine minutes: the window opened at the first, 15 minutes long.
    await expect(login.execute({ email: ' ADA@example.com', password: PASSWORD })).rejects.toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      details: { retry_after: 360 },
    });
    h.clock.advanceSeconds(359);
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    h.clock.advanceSeconds(1);
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  it('spends no hash and reads no account while refusing', async () => {
    const h = accountsHarness();
    const login = sessionLogin(h);
    for (let i = 0; i < 10; i += 1) await login.execute({ email: 'ghost@example.com', password: 'x' }).catch(() => undefined);
    const verify = vi.spyOn(h.ports.passwordHasher, 'verify');
    const lookup = vi.spyOn(h.ports.users, 'findByEmail');
    await expect(login.execute({ email: 'ghost@example.com', password: 'x' })).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(verify).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
  });

  it('forgets the failures once the owner logs in', async () => {
    const h = accountsHarness();
    await h.aUser({ email: 'ada@example.com', password: PASSWORD });
    const login = sessionLogin(h);
    for (let i = 0; i < 9; i += 1) await login.execute({ email: 'ada@example.com', password: 'wrong' }).catch(() => undefined);
    await login.execute({ email: 'ada@example.com', password: PASSWORD });
    for (let i = 0; i < 9; i += 1) await login.execute({ email: 'ada@example.com', password: 'wrong' }).catch(() => undefined);
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  it('keeps emails apart and stores no address in the limiter', async () => {
    const h = accountsHarness();
    await h.aUser({ email: 'ada@example.com', password: PASSWORD });
    const login = sessionLogin(h);
    const consume = vi.spyOn(h.rateLimiter, 'consume');
    for (let i = 0; i < 10; i += 1) await login.execute({ email: 'eve@example.com', password: 'x' }).catch(() => undefined);
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).resolves.toBeDefined();
    expect(JSON.stringify(consume.mock.calls)).not.toContain('example.com');
  });

  it('never tells an unknown email from a known one: same answers, same hashing, whatever the sequence', async () => {
    const attempt = fc.record({ waitSeconds: fc.integer({ min: 0, max: 300 }), password: fc.constantFrom('wrong', 'also wrong', '') });
    await fc.assert(
      fc.asyncProperty(fc.array(attempt, { maxLength: 30 }), async (attempts) => {
        const run = async (email: string, withAccount: boolean) => {
          const h = accountsHarness();
          if (withAccount) await h.aUser({ email, password: PASSWORD });
          const verify = vi.spyOn(h.ports.passwordHasher, 'verify');
          const login = sessionLogin(h);
          const answers: unknown[] = [];
          for (const a of attempts) {
            h.clock.advanceSeconds(a.waitSeconds);
            const answer = await login.execute({ email, password: a.password }).catch((e: unknown) => e);
            answers.push(answer instanceof DomainError ? { code: answer.code, message: answer.message, details: answer.details } : answer);
          }
          return { answers, hashes: verify.mock.calls.length };
        };
        expect(await run('ghost@example.com', false)).toEqual(await run('ghost@example.com', true));
      }),
      { numRuns: 40 },
    );
  });
});

describe('rehash on login', () => {
  it('rehashes a hash made at a lower cost after a successful login, and only then', async () => {
    const h = accountsHarness();
    const user = await h.aUser({ email: 'ada@example.com', password: PASSWORD });
    const hasher = h.ports.passwordHasher as unknown as { cost: number };
    hasher.cost = 12;
    const login = sessionLogin(h);
    await login.execute({ email: 'ada@example.com', password: 'wrong' }).catch(() => undefined);
    expect((await h.ports.users.findById(user.id))?.passwordHash).toBe(`plain:${PASSWORD}`);
    await login.execute({ email: 'ada@example.com', password: PASSWORD });
    expect((await h.ports.users.findById(user.id))?.passwordHash).toBe(`plain12:${PASSWORD}`);
    await expect(login.execute({ email: 'ada@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  it('never overwrites a password changed while the login was hashing', async () => {
    const h = accountsHarness();
    const user = await h.aUser({ email: 'ada@example.com', password: PASSWORD });
    const hasher = h.ports.passwordHasher as unknown as { cost: number; hash(p: string): Promise<string> };
    hasher.cost = 12;
    const hash = hasher.hash.bind(hasher);
    vi.spyOn(h.ports.passwordHasher, 'hash').mockImplementation(async (password) => {
      // A reset lands between the check and the rehash.
      await h.ports.users.setPasswordHash(user.id, 'plain12:new password');
      return hash(password);
    });
    // The reset wins twice: its hash stays, and the login that checked the old password gets no session.
    await expect(sessionLogin(h).execute({ email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await h.ports.users.findById(user.id))?.passwordHash).toBe('plain12:new password');
  });
});
