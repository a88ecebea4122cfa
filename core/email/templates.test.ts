import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  invitationEmail,
  notificationEmail,
  passwordResetEmail,
  signInLinkEmail,
  verificationEmail,
} from './templates';

const ctx = { appName: 'Acme', baseWebUrl: 'https://app.example.com' };
const evil = `<script>alert("x")</script> & 'co'`;

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('leaves other text alone', () => {
    expect(escapeHtml('Grüße, 100% ok')).toBe('Grüße, 100% ok');
  });
});

describe('verificationEmail', () => {
  const email = verificationEmail({ ...ctx, token: 'tok-123' });
  const url = 'https://app.example.com/verify-email?token=tok-123';

  it('links to /verify-email in both bodies', () => {
    expect(email.text).toContain(url);
    expect(email.html).toContain(`href="${url}"`);
  });

  it('names the app in the subject and says when the link expires', () => {
    expect(email.subject).toBe('Verify your email for Acme');
    expect(email.text).toContain('24 hours');
  });
});

describe('passwordResetEmail', () => {
  const email = passwordResetEmail({ ...ctx, token: 'r/e s+t=&' });
  const url = `https://app.example.com/reset-password?token=${encodeURIComponent('r/e s+t=&')}`;

  it('URL-encodes the token in both links', () => {
    expect(email.text).toContain(url);
    expect(email.html).toContain(`href="${escapeHtml(url)}"`);
    expect(email.text).not.toContain('r/e s+t=&');
  });

  it('says the link expires in 1 hour', () => {
    expect(email.text).toContain('1 hour');
    expect(email.html).toContain('1 hour');
  });

  it('tolerates a trailing slash on the base URL', () => {
    const other = passwordResetEmail({ ...ctx, baseWebUrl: 'https://app.example.com/', token: 't' });
    expect(other.text).toContain('https://app.example.com/reset-password?token=t');
  });
});

describe('invitationEmail', () => {
  const email = invitationEmail({ ...ctx, token: 'inv', organizationName: 'Globex', role: 'org_admin' });

  it('links to /invite/accept and names the organization, the role and the 7-day expiry', () => {
    expect(email.text).toContain('https://app.example.com/invite/accept?token=inv');
    expect(email.html).toContain('href="https://app.example.com/invite/accept?token=inv"');
    expect(email.subject).toBe('You have been invited to Acme');
    expect(email.text).toContain('Globex');
    expect(email.text).toContain('org admin');
    expect(email.text).toContain('7 days');
  });

  it('escapes a malicious organization name in the HTML but keeps it readable in the text', () => {
    const hostile = invitationEmail({ ...ctx, token: 'inv', organizationName: evil, role: 'member' });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
    expect(hostile.text).toContain(evil);
  });

  it('keeps the organization name, which any signup chooses, out of the subject', () => {
    const hostile = invitationEmail({ ...ctx, token: 'i', organizationName: 'Your account is locked\r\nBcc: victim@example.com', role: 'member' });
    expect(hostile.subject).toBe('You have been invited to Acme');
    expect(hostile.text).toContain('the organization named “Your account is locked');
  });

  it('escapes a hostile app name and base URL too', () => {
    const hostile = invitationEmail({
      appName: evil,
      baseWebUrl: 'https://x.example.com/"><img src=x>',
      token: 't',
      organizationName: 'O',
      role: 'member',
    });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).not.toContain('<img');
  });
});

describe('signInLinkEmail', () => {
  const email = signInLinkEmail({ ...ctx, token: 'a/b+c', firstName: 'Ada' });
  const url = `https://app.example.com/sign-in/email-link?token=${encodeURIComponent('a/b+c')}`;

  it('links to /sign-in/email-link in both bodies, the token URL-encoded', () => {
    expect(email.text).toContain(`Sign in: ${url}`);
    expect(email.html).toContain(`href="${escapeHtml(url)}"`);
  });

  it('names the app in the subject, greets by first name and says the link lasts 15 minutes, once', () => {
    expect(email.subject).toBe('Sign in to Acme');
    expect(email.text.startsWith('Hello Ada, someone asked to sign in to Acme')).toBe(true);
    expect(email.text).toContain('expires in 15 minutes and works once');
    expect(email.html).toContain('15 minutes');
  });

  it('greets without a name when the account has none', () => {
    expect(signInLinkEmail({ ...ctx, token: 't', firstName: null }).text.startsWith('Hello, someone asked')).toBe(true);
    expect(signInLinkEmail({ ...ctx, token: 't' }).text.startsWith('Hello, someone asked')).toBe(true);
  });

  it('escapes a hostile first name in the HTML and keeps it out of the subject', () => {
    const hostile = signInLinkEmail({ ...ctx, token: 't', firstName: evil });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).toContain('Hello &lt;script&gt;');
    expect(hostile.subject).toBe('Sign in to Acme');
  });
});

describe('notificationEmail', () => {
  const email = notificationEmail({ ...ctx, subject: 'Quota almost used', message: 'First <b>para</b>.\n\nSecond\nline.' });

  it('uses the subject as given and keeps paragraphs', () => {
    expect(email.subject).toBe('Quota almost used');
    expect(email.text).toContain('First <b>para</b>.\n\nSecond\nline.');
    expect(email.html).toContain('<p>First &lt;b&gt;para&lt;/b&gt;.</p>');
    expect(email.html).toContain('<p>Second<br>line.</p>');
  });

  it('signs with the app name', () => {
    expect(email.text.endsWith('Acme')).toBe(true);
    expect(email.html).toContain('<p>Acme</p>');
  });
});
