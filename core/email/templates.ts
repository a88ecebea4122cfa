/**
 * The transactional emails, as pure functions: input in, `{subject, text, html}` out.
 * Every value interpolated into HTML is escaped; every token is URL-encoded in its link; every
 * user-chosen name is flattened to one line (`oneLine`) in both bodies.
 * The expiry wording must match the TTLs the use cases set (verification 24 h,
 * reset 1 h, invitation 7 days, sign-in link 15 minutes).
 */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface TemplateContext {
  /** Product name shown in subjects and signatures. */
  appName: string;
  /** `APP_BASE_WEB_URL`: the web app that serves /verify-email, /reset-password, /invite/accept, /sign-in/email-link. */
  baseWebUrl: string;
}

export interface TokenEmailInput extends TemplateContext {
  token: string;
}

export interface SignInLinkEmailInput extends TokenEmailInput {
  /** The account's first name, when it has one: the greeting. */
  firstName?: string | null;
}

export interface InvitationEmailInput extends TokenEmailInput {
  organizationName: string;
  /** Role name as stored (`member`, `org_admin` ...). */
  role: string;
}

export interface NotificationEmailInput extends TemplateContext {
  subject: string;
  /** Plain text; blank lines separate paragraphs. */
  message: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * Control characters (C0, DEL, C1: line breaks and tabs among them) and the Unicode line and
 * paragraph separators, each run turned into one space. A subject becomes a mail header, where a
 * line break would start a new header; a name stands inside a paragraph of ours, where a line
 * break would start a paragraph the name wrote (in the HTML body too: line breaks there become
 * `<br>`). Names are refused with such characters at the API, but older rows or other sources may
 * still hold them.
 */
export const oneLine = (value: string): string => value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

const link = (baseWebUrl: string, path: string, token: string): string =>
  `${baseWebUrl.replace(/\/+$/, '')}${path}?token=${encodeURIComponent(token)}`;

const roleLabel = (role: string): string => role.replace(/_/g, ' ');

interface Layout {
  appName: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

/** Paragraphs are plain text here; escaping happens once, in this function. */
const renderHtml = ({ appName, paragraphs, action, footer }: Layout): string => {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  if (action) {
    const url = escapeHtml(action.url);
    body.push(
      `<p><a href="${url}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>`,
      `<p style="font-size:13px;color:#555555">If the button does not work, copy this link into your browser:<br>${url}</p>`,
    );
  }
  if (footer) body.push(`<p style="font-size:13px;color:#555555">${escapeHtml(footer)}</p>`);
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#111111">',
    ...body,
    `<p>${escapeHtml(appName)}</p>`,
    '</body></html>',
  ].join('\n');
};

const renderText = ({ appName, paragraphs, action, footer }: Layout): string =>
  [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), ...(footer ? [footer] : []), appName].join(
    '\n\n',
  );

const render = (subject: string, layout: Layout): RenderedEmail => ({
  subject: oneLine(subject),
  text: renderText(layout),
  html: renderHtml(layout),
});

export const verificationEmail = (input: TokenEmailInput): RenderedEmail =>
  render(`Verify your email for ${input.appName}`, {
    appName: input.appName,
    paragraphs: [`Welcome to ${input.appName}! Please confirm your email address.`],
    action: { label: 'Verify email', url: link(input.baseWebUrl, '/verify-email', input.token) },
    footer: 'This link expires in 24 hours. If you did not sign up, you can ignore this email.',
  });

export const passwordResetEmail = (input: TokenEmailInput): RenderedEmail =>
  render(`Reset your ${input.appName} password`, {
    appName: input.appName,
    paragraphs: ['Someone asked to reset the password of your account. If it was you, choose a new password.'],
    action: { label: 'Reset password', url: link(input.baseWebUrl, '/reset-password', input.token) },
    footer: 'This link expires in 1 hour and works once. If you did not ask for it, you can ignore this email.',
  });

/**
 * The link signs its holder in, so the email says so plainly and tells whoever did not ask for
 * it that nothing happens unless the link is opened. The first name is the user's own choice:
 * flattened to one line, like every name.
 */
export const signInLinkEmail = (input: SignInLinkEmailInput): RenderedEmail => {
  const name = input.firstName ? oneLine(input.firstName) : '';
  return render(`Sign in to ${input.appName}`, {
    appName: input.appName,
    paragraphs: [
      `${name ? `Hello ${name},` : 'Hello,'} someone asked to sign in to ${input.appName} with this email address. If it was you, open the link below.`,
    ],
    action: { label: 'Sign in', url: link(input.baseWebUrl, '/sign-in/email-link', input.token) },
    footer: 'This link expires in 15 minutes and works once; a newer link replaces it. If you did not ask for it, you can ignore this email: nobody can sign in without it.',
  });
};

/**
 * The organization name is chosen by whoever signed up, so it stays out of the subject (the one
 * line a mail client shows before anything else, where it would read as our own words) and is
 * quoted in the body as a name, not as a sentence of ours.
 */
export const invitationEmail = (input: InvitationEmailInput): RenderedEmail =>
  render(`You have been invited to ${input.appName}`, {
    appName: input.appName,
    paragraphs: [
      `You have been invited to join the organization named “${oneLine(input.organizationName)}” on ${input.appName} with the ${roleLabel(input.role)} role.`,
    ],
    action: { label: 'Accept invitation', url: link(input.baseWebUrl, '/invite/accept', input.token) },
    footer: 'This invitation expires in 7 days. If you were not expecting it, you can ignore this email.',
  });

export const notificationEmail = (input: NotificationEmailInput): RenderedEmail =>
  render(input.subject, {
    appName: input.appName,
    paragraphs: input.message
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== ''),
  });
