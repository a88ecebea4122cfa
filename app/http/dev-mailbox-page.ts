import type { MailboxMessage } from '../../adapters/email/dev-mailbox';
import { escapeHtml } from './html';

/**
 * `/dev/mailbox`: each email's HTML is shown in an `<iframe sandbox srcdoc>`: no script runs, it
 * cannot reach this origin, and its links open in a new tab (`allow-popups` plus the `<base
 * target>` put in front of it). The page's own CSP allows only inline styles and data: images
 * (a srcdoc frame inherits it), nothing else, not even a script.
 */
export const MAILBOX_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; form-action 'none'; frame-ancestors 'none'";

function renderMessage(message: MailboxMessage): string {
  const links = message.links.map((link) => `<li><a href="${escapeHtml(link)}" target="_blank" rel="noopener noreferrer">${escapeHtml(link)}</a></li>`).join('');
  const framed = `<base target="_blank">${message.html}`;
  return `<article class="email" id="email-${message.id}" data-to="${escapeHtml(message.to)}">
<h2>${escapeHtml(message.subject)}</h2>
<p class="meta">To <b class="to">${escapeHtml(message.to)}</b> · ${escapeHtml(message.receivedAt.toISOString())}${message.tag ? ` · ${escapeHtml(message.tag)}` : ''}</p>
${links ? `<ul class="links">${links}</ul>` : ''}
<iframe title="${escapeHtml(message.subject)}" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(framed)}"></iframe>
</article>`;
}

/** Newest first, as `messages` comes from the mailbox. */
export function renderMailboxPage(appName: string, messages: readonly MailboxMessage[]): string {
  const body =
    messages.length === 0
      ? '<p class="empty">No email yet. Emails the server sends in <code>dev</code> appear here (reload the page).</p>'
      : messages.map(renderMessage).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(appName)} dev mailbox</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #222; }
.email { border: 1px solid #ccc; border-radius: 6px; margin: 1rem 0; padding: 0 1rem 1rem; }
.meta { color: #555; margin-top: 0; }
.links { padding-left: 1.2rem; word-break: break-all; }
iframe { width: 100%; height: 18rem; border: 1px solid #eee; background: #fff; }
</style>
</head>
<body>
<h1>${escapeHtml(appName)} dev mailbox</h1>
<p>Every email the <code>stub</code> provider took in this process, newest first (the last ${messages.length === 1 ? 'one' : `${messages.length}`} kept).
As JSON: <a href="mailbox/messages">mailbox/messages</a>, filtered with <code>?to=</code>.</p>
${body}
</body>
</html>
`;
}
