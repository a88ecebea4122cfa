import { defineRoute, type AnyRoute } from '../route';
import type { SessionCookie } from '../session-cookie';
import { RevokedResponse, SessionIdParams, SessionResponse } from '../schemas/security.schemas';
import * as v from 'valibot';
import { streamList } from '../list-response';
import type { ListedSession, ListSessions } from '../../../core/accounts/list-sessions.use-case';
import type { RevokeSession } from '../../../core/accounts/revoke-session.use-case';
import type { RevokeOtherSessions } from '../../../core/accounts/revoke-other-sessions.use-case';

export interface SessionUseCases {
  listSessions: ListSessions;
  revokeSession: RevokeSession;
  revokeOtherSessions: RevokeOtherSessions;
}

const toSession = (s: ListedSession): v.InferOutput<typeof SessionResponse> => ({
  id: s.id,
  created_at: s.createdAt.toISOString(),
  last_seen_at: s.lastSeenAt.toISOString(),
  expires_at: s.expiresAt.toISOString(),
  user_agent: s.userAgent,
  ip: s.ip,
  current: s.current,
});

/** The caller's own sessions: see them, end one, end all the others. */
export function sessionRoutes(useCases: SessionUseCases, cookie: SessionCookie): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sessions',
      tag: 'Sessions',
      operationId: 'listSessions',
      summary: "The caller's live sessions, newest first; `current` marks this one",
      description: "The caller's live sessions, newest first, with when each was created and last seen, its user agent and IP; `current` marks the session of this request.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 200: { description: 'The sessions', schema: v.array(SessionResponse) } },
      handler: async ({ caller, ctx }) => ({
        status: 200,
        body: await streamList(ctx, { page: (request) => useCases.listSessions.execute(caller, request), toResponse: toSession }),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/sessions/{session_id}',
      tag: 'Sessions',
      operationId: 'revokeSession',
      summary: "End one of the caller's sessions (this one too: the cookie is then cleared)",
      description: "Ends one of the caller's sessions; ending the current one also clears its cookie. Another user's session id answers 404 `RESOURCE_NOT_FOUND`.",
      access: 'readonly',
      apiKeys: 'refused',
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
      description: "Ends every session of the caller except this one, and says how many.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 200: { description: 'How many were ended', schema: RevokedResponse } },
      handler: async ({ caller }) => ({ status: 200, body: await useCases.revokeOtherSessions.execute(caller) }),
    }),
  ];
}
