import { describe, expect, it, vi } from 'vitest';
import { accountsHarness, sessionLogin } from '../../test/builders/accounts';
import { recordingLogger } from '../../test/support/recording-logger';
import { AuthenticateSession } from './authenticate-session.use-case';
import { ListSessions } from './list-sessions.use-case';
import { RevokeOtherSessions } from './revoke-other-sessions.use-case';
import { RevokeSession } from './revoke-session.use-case';
import { SessionActivity } from './session-activity';

async function twoUsers() {
  const h = accountsHarness();
  await h.aUser({ email: 'ada@example.com', password: 'pw-ada-123' });
  await h.aUser({ email: 'bob@example.com', password: 'pw-bob-123' });
  const login = sessionLogin(h);
  const authenticate = new AuthenticateSession(h.ports);
  const as = async (email: string, password: string, userAgent: string | null = null) => {
    const session = await login.execute({ email, password, origin: { userAgent, ip: '203.0.113.9' } });
    h.clock.advanceSeconds(1);
    return { ...session, caller: await authenticate.execute(session.token) };
  };
  return { h, authenticate, as };
}

describe('ListSessions', () => {
  it("lists the caller's live sessions newest first, marks the current one, and shows nobody else's", async () => {
    const { h, as } = await twoUsers();
    const old = await as('ada@example.com', 'pw-ada-123', 'Firefox/140');
    const current = await as('ada@example.com', 'pw-ada-123', `Chrome/${'x'.repeat(300)}`);
    await as('bob@example.com', 'pw-bob-123');
    const listed = (await new ListSessions(h.ports).execute(current.caller, { limit: 10 })).items;
    expect(listed.map((s) => [s.id, s.current])).toEqual([
      [current.sessionId, true],
      [old.sessionId, false],
    ]);
    expect(listed[1]).toMatchObject({ userAgent: 'Firefox/140', ip: '203.0.113.9', expiresAt: old.expiresAt });
    expect(Array.from(listed[0]!.userAgent!)).toHaveLength(255);
  });

  it('leaves out expired sessions', async () => {
    const { h, as } = await twoUsers();
    await as('ada@example.com', 'pw-ada-123');
    h.clock.advanceSeconds(86_400 - 10);
    const fresh = await as('ada@example.com', 'pw-ada-123');
    h.clock.advanceSeconds(10);
    expect((await new ListSessions(h.ports).execute(fresh.caller, { limit: 10 })).items.map((s) => s.id)).toEqual([fresh.sessionId]);
  });
});

describe('RevokeSession / RevokeOtherSessions', () => {
  it("ends one of the caller's sessions; another user's id is RESOURCE_NOT_FOUND and stays alive", async () => {
    const { h, authenticate, as } = await twoUsers();
    const a1 = await as('ada@example.com', 'pw-ada-123');
    const a2 = await as('ada@example.com', 'pw-ada-123');
    const b = await as('bob@example.com', 'pw-bob-123');
    const revoke = new RevokeSession(h.ports);
    await expect(revoke.execute(a1.caller, { sessionId: b.sessionId })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'session', resource_id: b.sessionId },
    });
    await expect(authenticate.execute(b.token)).resolves.toBeDefined();
    await expect(revoke.execute(a1.caller, { sessionId: a2.sessionId })).resolves.toEqual({ revokedCurrent: false });
    await expect(authenticate.execute(a2.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(revoke.execute(a1.caller, { sessionId: a1.sessionId })).resolves.toEqual({ revokedCurrent: true });
    await expect(authenticate.execute(a1.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('ends every other session of the caller and says how many', async () => {
    const { h, authenticate, as } = await twoUsers();
    const a1 = await as('ada@example.com', 'pw-ada-123');
    await as('ada@example.com', 'pw-ada-123');
    await as('ada@example.com', 'pw-ada-123');
    const b = await as('bob@example.com', 'pw-bob-123');
    await expect(new RevokeOtherSessions(h.ports).execute(a1.caller)).resolves.toEqual({ revoked: 2 });
    await expect(new RevokeOtherSessions(h.ports).execute(a1.caller)).resolves.toEqual({ revoked: 0 });
    await expect(authenticate.execute(a1.token)).resolves.toBeDefined();
    await expect(authenticate.execute(b.token)).resolves.toBeDefined();
  });
});

describe('SessionActivity', () => {
  it('refreshes lastSeenAt at most once per five minutes, in the background', async () => {
    const h = accountsHarness();
    await h.aUser({ email: 'ada@example.com', password: 'pw-ada-123' });
    const activity = new SessionActivity({ sessions: h.ports.sessions, clock: h.clock, logger: recordingLogger() });
    const authenticate = new AuthenticateSession({ ...h.ports, sessionActivity: activity });
    const write = vi.spyOn(h.ports.sessions, 'recordActivity');
    const { token, sessionId } = await sessionLogin(h).execute({ email: 'ada@example.com', password: 'pw-ada-123' });
    const lastSeen = () => h.store.sessions.get(sessionId)!.lastSeenAt.getTime();
    const createdAt = lastSeen();

    h.clock.advance(5 * 60_000 - 1);
    await authenticate.execute(token);
    await activity.flush();
    expect(write).not.toHaveBeenCalled();

    h.clock.advance(1);
    // Many requests at once: one write.
    await Promise.all(Array.from({ length: 10 }, () => authenticate.execute(token)));
    await activity.flush();
    expect(write).toHaveBeenCalledTimes(1);
    expect(lastSeen()).toBe(createdAt + 5 * 60_000);

    h.clock.advance(4 * 60_000);
    await authenticate.execute(token);
    await activity.flush();
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('answers the request without waiting for the write, and logs a failed write', async () => {
    const h = accountsHarness();
    await h.aUser({ email: 'ada@example.com', password: 'pw-ada-123' });
    const logger = recordingLogger();
    const activity = new SessionActivity({ sessions: h.ports.sessions, clock: h.clock, logger });
    const authenticate = new AuthenticateSession({ ...h.ports, sessionActivity: activity });
    const { token } = await sessionLogin(h).execute({ email: 'ada@example.com', password: 'pw-ada-123' });
    let fail!: (error: Error) => void;
    vi.spyOn(h.ports.sessions, 'recordActivity').mockReturnValue(new Promise((_, reject) => (fail = reject)));
    h.clock.advance(10 * 60_000);
    await expect(authenticate.execute(token)).resolves.toMatchObject({ sessionId: expect.any(Number) });
    fail(new Error('database down'));
    await activity.flush();
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', message: 'could not record session activity' })]);
  });
});
