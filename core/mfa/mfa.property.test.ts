import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mfaHarness, type MfaHarness } from '../../test/builders/mfa';
import { DomainError } from '../shared/domain-error';
import { acceptTotpCode } from './totp-code';

const PASSWORD = 'correct horse';

/** Which step a code stands for, as an authenticator app would compute it: the verifier's order is t, t−1, t+1. */
function stepOfCode(h: MfaHarness, secret: string, code: string): number | null {
  const now = h.totp.stepAt(h.clock.now());
  for (const step of [now, now - 1, now + 1]) if (h.totp.codeAt(secret, step) === code) return step;
  return null;
}

/** A six-digit code that belongs to no step of the window around now. */
function wrongCode(h: MfaHarness, secret: string): string {
  const now = h.totp.stepAt(h.clock.now());
  const window = new Set([now - 1, now, now + 1].map((step) => h.totp.codeAt(secret, step)));
  return ['000000', '111111', '222222', '333333'].find((code) => !window.has(code))!;
}

/** A fixed-window counter, as the rate-limit store keeps one: `limit` events per `windowMs` from the first. */
function modelWindow(now: () => number, limit: number, windowMs: number) {
  let events = 0;
  let endsAt = 0;
  return {
    full: () => now() < endsAt && events >= limit,
    count() {
      if (now() >= endsAt) {
        events = 0;
        endsAt = now() + windowMs;
      }
      events += 1;
    },
    clear() {
      events = 0;
      endsAt = 0;
    },
  };
}

const codeOf = (error: unknown) => (error instanceof DomainError ? error.code : String(error));

describe('TOTP acceptance against a model', () => {
  it('accepts a code of steps t−1..t+1 once, and refuses every other', async () => {
    const command = fc.oneof(
      fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 0, max: 95 }) }),
      fc.record({ kind: fc.constant('present' as const), offset: fc.integer({ min: -3, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
        const h = mfaHarness();
        const user = await h.aUser();
        const { secret } = await h.enrol(user);
        let lastUsed = h.store.userTotp.get(user.id)!.last_used_step!;
        for (const c of commands) {
          if (c.kind === 'wait') {
            h.clock.advanceSeconds(c.seconds);
            continue;
          }
          const now = h.totp.stepAt(h.clock.now());
          const code = h.totp.codeAt(secret, now + c.offset);
          // The model: the step the code stands for must lie in the window and be newer than the last accepted.
          const step = stepOfCode(h, secret, code);
          const expected = step !== null && step > lastUsed;
          const factor = (await h.mfaPorts.mfa.findTotp(user.id))!;
          expect(await acceptTotpCode(h.mfaPorts, factor, code)).toBe(expected);
          if (expected) lastUsed = step;
          expect(h.store.userTotp.get(user.id)!.last_used_step).toBe(lastUsed);
        }
      }),
      { numRuns: 60 },
    );
  });
});

type ChallengeCommand =
  | { kind: 'login' }
  | { kind: 'wait'; seconds: number }
  | { kind: 'verify'; challenge: number; with: 'code' | 'wrong' | 'recovery' | 'used-recovery' | 'nothing'; offset: number };

interface ModelChallenge {
  token: string;
  expiresAt: number;
  attempts: number;
  consumed: boolean;
}

describe('sign-in challenge state machine', () => {
  it('never yields a session without a valid second factor, and yields one for every valid one', async () => {
    const command: fc.Arbitrary<ChallengeCommand> = fc.oneof(
      fc.constant({ kind: 'login' as const }),
      fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 0, max: 400 }) }),
      fc.record({
        kind: fc.constant('verify' as const),
        challenge: fc.nat(),
        with: fc.constantFrom('code' as const, 'wrong' as const, 'recovery' as const, 'used-recovery' as const, 'nothing' as const),
        offset: fc.integer({ min: -1, max: 1 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 30 }), async (commands) => {
        const h = mfaHarness();
        const user = await h.aUser({ email: 'ada@example.com', password: PASSWORD });
        const { secret, recoveryCodes } = await h.enrol(user);
        const sessionsAtStart = h.store.sessions.size;
        let lastUsed = h.store.userTotp.get(user.id)!.last_used_step!;
        const unusedCodes = [...recoveryCodes];
        const usedCodes: string[] = [];
        const challenges: ModelChallenge[] = [];
        let sessions = 0;
        const now = () => h.clock.now().getTime();
        // The per-account throttles, fixed windows that open at their first event: login failures
        // (wrong codes among them), and second-factor guesses (every code presented on a live challenge).
        const loginFailures = modelWindow(now, 10, 900_000);
        const guesses = modelWindow(now, 10, 900_000);

        for (const c of commands) {
          if (c.kind === 'wait') {
            h.clock.advanceSeconds(c.seconds);
            continue;
          }
          if (c.kind === 'login') {
            const outcome = await h.login.execute({ email: 'ada@example.com', password: PASSWORD }).catch((e: unknown) => codeOf(e));
            if (loginFailures.full() || guesses.full()) {
              expect(outcome).toBe('TOO_MANY_ATTEMPTS');
            } else {
              expect(outcome).toMatchObject({ kind: 'mfa_required' });
              if (typeof outcome === 'object' && outcome.kind === 'mfa_required') {
                challenges.push({ token: outcome.challenge.token, expiresAt: outcome.challenge.expiresAt.getTime(), attempts: 0, consumed: false });
              }
            }
            continue;
          }
          const challenge = challenges.length ? challenges[c.challenge % challenges.length] : undefined;
          const input: { challengeToken: string | undefined; code?: string; recoveryCode?: string } = { challengeToken: challenge?.token };
          let factorValid = false;
          let usedStep: number | null = null;
          let usedRecovery: string | undefined;
          if (c.with === 'code') {
            input.code = h.totp.codeAt(secret, h.totp.stepAt(h.clock.now()) + c.offset);
            usedStep = stepOfCode(h, secret, input.code);
            factorValid = usedStep !== null && usedStep > lastUsed;
          } else if (c.with === 'wrong') {
            input.code = wrongCode(h, secret);
          } else if (c.with === 'recovery' && unusedCodes.length) {
            usedRecovery = unusedCodes[0]!;
            input.recoveryCode = usedRecovery;
            factorValid = true;
          } else if (c.with === 'used-recovery' && usedCodes.length) {
            input.recoveryCode = usedCodes[0]!;
          }
          const live = challenge !== undefined && !challenge.consumed && now() < challenge.expiresAt && challenge.attempts < 5;
          const result = await h.verify.execute(input).then(
            () => 'session',
            (e: unknown) => codeOf(e),
          );
          if (!live) {
            expect(result).toBe('UNAUTHORIZED');
            continue;
          }
          challenge.attempts += 1;
          if (guesses.full()) {
            expect(result).toBe('TOO_MANY_ATTEMPTS');
            continue;
          }
          guesses.count();
          if (factorValid) {
            expect(result).toBe('session');
            challenge.consumed = true;
            sessions += 1;
            loginFailures.clear();
            guesses.clear();
            if (usedStep !== null) lastUsed = usedStep;
            if (usedRecovery !== undefined) usedCodes.push(unusedCodes.shift()!);
          } else {
            expect(result).toBe('INVALID_MFA_CODE');
            loginFailures.count();
          }
        }
        expect(h.store.sessions.size - sessionsAtStart).toBe(sessions);
      }),
      { numRuns: 60 },
    );
  });
});
