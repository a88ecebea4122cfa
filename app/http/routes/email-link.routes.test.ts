import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { AfterResponse } from '../after-response';
import type { MfaChallengeCookie, SessionCookie } from '../session-cookie';
import { DomainError } from '../../../core/shared/domain-error';
import { emailLinkRoutes, type EmailLinkUseCases } from './email-link.routes';

/**
 * `/auth/email-link` waits only for the per-email throttle: the lookup, token and email of an
 * existing account run after the answer, so their time cannot show in it (no timing test: the
 * order of events is what proves it).
 */
describe('POST /auth/email-link', () => {
  const routeWith = (requestEmailLink: unknown, after: AfterResponse) =>
    emailLinkRoutes({ requestEmailLink } as unknown as EmailLinkUseCases, { session: {} as SessionCookie, challenge: {} as MfaChallengeCookie }, { enabled: true, afterResponse: after }).find(
      (route) => route.path === '/auth/email-link',
    )!;
  const call = (route: ReturnType<typeof routeWith>) =>
    route.handler({ body: { email: 'someone@example.com' }, params: undefined, query: undefined, caller: undefined, clientIp: '127.0.0.1', ctx: {} as never });

  it('answers 202 once admitted, before the delivery has even started', async () => {
    const events: string[] = [];
    let finish: () => void = () => {};
    const after = new AfterResponse(pino({ level: 'silent' }));
    const route = routeWith(
      {
        execute: async () => {
          events.push('admitted');
          return () => (events.push('delivery started'), new Promise<void>((resolve) => (finish = resolve)));
        },
      },
      after,
    );

    const reply = await call(route);
    events.push('answered');

    expect(reply).toEqual({ status: 202, body: { success: true } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['admitted', 'answered', 'delivery started']);
    finish();
    await after.drain();
  });

  it('lets the throttle refusal reach the client', async () => {
    const route = routeWith({ execute: () => Promise.reject(new DomainError('TOO_MANY_ATTEMPTS', 'slow down', { retry_after: 60 })) }, new AfterResponse(pino({ level: 'silent' })));
    await expect(call(route)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });
});
