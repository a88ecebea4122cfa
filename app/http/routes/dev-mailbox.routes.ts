import * as v from 'valibot';
import type { DevMailbox, MailboxMessage } from '../../../adapters/email/dev-mailbox';
import { defineRoute, type AnyRoute } from '../route';
import { MAILBOX_CSP, renderMailboxPage } from '../dev-mailbox-page';

const MAX_WAIT_SECONDS = 20;

const MailboxQuery = v.object({
  to: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(320, 'At most 320 characters'))),
  wait: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,2}$/, 'Must be a whole number of seconds'),
      v.transform(Number),
      v.maxValue(MAX_WAIT_SECONDS, `At most ${MAX_WAIT_SECONDS}`),
    ),
  ),
});

const view = (message: MailboxMessage) => ({
  id: message.id,
  to: message.to,
  subject: message.subject,
  tag: message.tag ?? null,
  received_at: message.receivedAt.toISOString(),
  links: message.links,
  text: message.text,
  html: message.html,
});

/**
 * Mounted only in `dev` with the `stub` provider (elsewhere both paths answer 404): the emails
 * hold live tokens. Kept out of the OpenAPI description, which is the same whatever the settings.
 */
export function devMailboxRoutes(mailbox: DevMailbox, appName: string): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/dev/mailbox',
      tag: 'System',
      operationId: 'getDevMailbox',
      summary: 'The emails of this dev server, as a page',
      description: 'Development only: each email the stub provider took, newest first, rendered.',
      access: 'public',
      hidden: true,
      responses: { 200: { description: 'An HTML page', mediaType: 'text/html' } },
      handler: async ({ ctx }) => {
        ctx.set('Content-Security-Policy', MAILBOX_CSP);
        ctx.type = 'text/html; charset=utf-8';
        return { status: 200, body: renderMailboxPage(appName, mailbox.list()) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/mailbox/messages',
      tag: 'System',
      operationId: 'listDevMailboxMessages',
      summary: 'The emails of this dev server, as JSON',
      description:
        'Development only: `{"messages": [...]}`, newest first, each with its links; `to` keeps those to one address; `wait` (seconds, at most 20) waits for a first one.',
      access: 'public',
      hidden: true,
      query: MailboxQuery,
      responses: { 200: { description: 'The emails' } },
      handler: async ({ query }) => {
        if (query.wait !== undefined) await mailbox.waitFor(query.to, query.wait * 1000);
        return { status: 200, body: { messages: mailbox.list(query.to).map(view) } };
      },
    }),
  ];
}
