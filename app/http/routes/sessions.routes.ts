import { defineRoute, type AnyRoute } from '../route';
import type { SessionCookie } from '../session-cookie';
import { RevokedResponse, SessionIdParams, SessionResponse } from '../schemas/security.schemas';
import * as v from 'valibot';
import type { ListSessions } from '../../../core/accounts/list-sessions.use-case';
import type { RevokeSession } from '../../../core/accounts/revoke-session.use-case';
import type { RevokeOtherSessions } from '../../../core/accounts/revoke-other-sessions.use-case';

export interface SessionUseCases {
  listSessions: ListSessions;
  revokeSession: RevokeSession;
  revokeOtherSessions: RevokeOtherSessions;
}

/** The caller's own sessions: see them, end one, end all the others. */
export function sessionRoutes(useCases: SessionUseCases, cookie: SessionCookie): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sessions',
      tag: 'Sessions',
      operationId: 'listSessions',
      summary: "The caller's live sessions, newest first; `current` marks this one",
      access: 'readonly',
      allowWithoutMfa: true,
      responses: { 200: { description: 'The sessions', schema: v.array(SessionResponse) } },
      handler: async ({ caller }) => ({
        status: 200,
        body: (await useCases.listSessions.execute(caller)).map((s) => ({
          id: s.id,
          created_at: s.createdAt.toISOString(),
          last_seen_at: s.lastSeenAt.toISOString(),
          expires_at: s.expiresAt.toISOString(),
          user_agent: s.userAgent,
          ip: s.ip,
          current: s.current,
        })),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/sessions/{session_id}',
      tag: 'Sessions',
      operationId: 'revokeSession',
      summary: "End one of the caller's sessions (this one too: the cookie is then cleared)",
      access: 'readonly',
      allowWithoutMfa: true,
      params: SessionIdParams,
      responses: { 204: { description: 'Ended' } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params, ctx }) => {
        const { revokedCurrent } = await useCases.revokeSession.execute(caller, { sessionId: params.session_id });
        if (revokedCurrent) cookie.clear(ctx);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/sessions/revoke-others',
      tag: 'Sessions',
      operationId: 'revokeOtherSessions',
      summary: 'End every session of the caller except this one',
      access: 'readonly',
      allowWithoutMfa: true,
      responses: { 200: { description: 'How many were ended', schema: RevokedResponse } },
      handler: async ({ caller }) => ({ status: 200, body: await useCases.revokeOtherSessions.execute(caller) }),
    }),
  ];
}
