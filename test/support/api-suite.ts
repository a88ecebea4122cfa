import { afterAll, beforeAll } from 'vitest';
import { createApiClient, CookieJar, type ApiClient } from '../../app/client/index';
import type { RoleName } from '../../core/access/role';
import { startTestApp, type TestApp } from './app';
import { testSessions, type TestSession, type TestSessions } from './sessions';

/** A logged-in caller: its session and the generated client that sends its cookie. */
export type ApiCaller = TestSession & { api: ApiClient };

export interface ApiSuite {
  /** The running app; read it inside tests and hooks, once `beforeAll` has started it. */
  readonly app: TestApp;
  readonly sessions: TestSessions;
  /** The generated client with `session`'s cookie, or anonymous without one. */
  clientFor(session?: TestSession): ApiClient;
  /** A caller of `role` in a new organization (or the given one), with the generated client. */
  as(role: RoleName, organizationId?: number): Promise<ApiCaller>;
}

/**
 * The setup of an end-to-end test that speaks to the API through the generated client: called in
 * a `describe`, it starts the app on a throwaway database before the tests (with `env()`, read
 * then, so it may name a fake started by an earlier `beforeAll`) and closes it after them.
 * `as` and `clientFor` may be destructured: they read the app only when called.
 */
export function apiSuite(env: () => Record<string, string> = () => ({})): ApiSuite {
  let current: { app: TestApp; sessions: TestSessions } | undefined;
  const started = () => {
    if (!current) throw new Error('apiSuite: the app starts in beforeAll; use it inside tests and hooks');
    return current;
  };

  beforeAll(async () => {
    const app = await startTestApp(env());
    current = { app, sessions: testSessions(app.db!.database) };
  });
  afterAll(() => current?.app.close());

  const clientFor = (session?: TestSession): ApiClient => {
    const { app } = started();
    const jar = new CookieJar();
    if (session) jar.set(app.config.sessionCookieName, session.token);
    return createApiClient(app.url, jar);
  };

  return {
    get app() {
      return started().app;
    },
    get sessions() {
      return started().sessions;
    },
    clientFor,
    async as(role, organizationId) {
      const { sessions } = started();
      const session = await sessions.loginAs(role, organizationId ?? (await sessions.newOrganization()));
      return { ...session, api: clientFor(session) };
    },
  };
}
