import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { AfterResponse } from '../after-response';
import type { MfaChallengeCookie, SessionCookie } from '../session-cookie';
import { accountRoutes, type AccountUseCases } from './accounts.routes';

/**
 * `/password/forgot` and `/auth/resend-verification` answer before their work runs, so the time
 * an existing account's token and email take cannot show in the response (no timing test: the
 * order of events is what proves it).
 */
describe('account routes that must not leak timing', () => {
  it.each([
    ['/password/forgot', 'forgotPassword'],
    ['/auth/resend-verification', 'resendVerification'],
  ] as const)('%s answers 202 before the use case has even started', async (path, useCase) => {
    const events: string[] = [];
    let finish: () => void = () => {};
    const pending = { execute: () => (events.push('work started'), new Promise<void>((resolve) => (finish = resolve))) };
    const after = new AfterResponse(pino({ level: 'silent' }));
    const routes = accountRoutes({ [useCase]: pending } as unknown as AccountUseCases, {} as SessionCookie, {} as MfaChallengeCookie, {
      signupOpen: true,
      afterResponse: after,
    });
    const route = routes.find((candidate) => candidate.path === path)!;

    const reply = await route.handler({ body: { email: 'someone@example.com' }, params: undefined, query: undefined, caller: undefined, clientIp: '127.0.0.1', ctx: {} as never });
    events.push('answered');

    expect(reply).toEqual({ status: 202, body: { success: true } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['answered', 'work started']);
    finish();
    await after.drain();
  });
});
