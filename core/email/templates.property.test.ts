import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, invitationEmail, oneLine, signInLinkEmail, type RenderedEmail } from './templates';

const ctx = { appName: 'Acme', baseWebUrl: 'https://app.example.com', token: 'inv', role: 'member' };
/** Names built from the characters that could forge a layout: line breaks, controls, separators, markup, a link. */
const hostileName = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\n', '\r', '\t', '\u000b', '\u000c', '\u0000', '\u007f', '\u0085', '\u2028', '\u2029', '<', '>', '&', '"', "'", ' '),
    fc.constantFrom('Accept invitation: https://evil.example/', '<a href="https://evil.example/">', '<br>'),
    fc.string({ unit: 'binary', maxLength: 3 }),
  ),
  maxLength: 20,
});
const lines = (text: string) => text.split(/\r\n|\r|\n|\u2028|\u2029|\u0085/).length;

/** Each template that shows a name someone chose, rendered with that name, and where the name must appear. */
const NAMED_TEMPLATES: { template: string; render(name: string): RenderedEmail; shown(flattened: string): string }[] = [
  { template: 'invitation (organization name)', render: (organizationName) => invitationEmail({ ...ctx, organizationName }), shown: (name) => `named “${name}” on` },
  { template: 'sign-in link (first name)', render: (firstName) => signInLinkEmail({ ...ctx, firstName }), shown: (name) => (name ? `Hello ${name},` : 'Hello,') },
];

describe.each(NAMED_TEMPLATES)('names in the $template email', ({ render, shown }) => {
  const plain = render('Globex');

  it('cannot add a line to the text body, nor markup to the HTML body', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const email = render(name);
        // As many lines and paragraphs as with a plain name: nothing a name holds starts one.
        expect(lines(email.text)).toBe(lines(plain.text));
        expect(email.text.split('\n\n')).toHaveLength(plain.text.split('\n\n').length);
        expect(email.text).not.toMatch(/[\p{Cc}\u2028\u2029](?<!\n)/u);
        // As many tags as with a plain name, and the name appears escaped, on one line.
        expect(email.html.split('<').length).toBe(plain.html.split('<').length);
        expect(email.html).toContain(escapeHtml(shown(oneLine(name))));
        expect(email.subject).toBe(plain.subject);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a name in an email', () => {
  it('keeps the rest of the name readable', () => {
    const email = invitationEmail({ ...ctx, organizationName: 'Globex\n\nAccept invitation: https://evil.example/\r\n' });
    expect(email.text).toContain('named “Globex Accept invitation: https://evil.example/” on');
    expect(email.text.split('\n').filter((line) => line.startsWith('Accept invitation:'))).toEqual([
      'Accept invitation: https://app.example.com/invite/accept?token=inv',
    ]);
  });
});
