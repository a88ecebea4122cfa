import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, invitationEmail, oneLine } from './templates';

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

describe('names in every email template', () => {
  const plain = invitationEmail({ ...ctx, organizationName: 'Globex' });

  it('cannot add a line to the text body, nor markup to the HTML body', () => {
    fc.assert(
      fc.property(hostileName, (organizationName) => {
        const email = invitationEmail({ ...ctx, organizationName });
        // As many lines and paragraphs as with a plain name: nothing a name holds starts one.
        expect(lines(email.text)).toBe(lines(plain.text));
        expect(email.text.split('\n\n')).toHaveLength(plain.text.split('\n\n').length);
        expect(email.text).not.toMatch(/[\p{Cc}\u2028\u2029](?<!\n)/u);
        // As many tags as with a plain name, and the name appears escaped, on one line.
        expect(email.html.split('<').length).toBe(plain.html.split('<').length);
        expect(email.html).toContain(`named “${escapeHtml(oneLine(organizationName))}” on`);
        expect(email.subject).toBe(plain.subject);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the rest of the name readable', () => {
    const email = invitationEmail({ ...ctx, organizationName: 'Globex\n\nAccept invitation: https://evil.example/\r\n' });
    expect(email.text).toContain('named “Globex Accept invitation: https://evil.example/” on');
    expect(email.text.split('\n').filter((line) => line.startsWith('Accept invitation:'))).toEqual([
      'Accept invitation: https://app.example.com/invite/accept?token=inv',
    ]);
  });
});
