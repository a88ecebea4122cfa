import * as v from 'valibot';

const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;

/**
 * One line of plain text: no control character (U+0000–U+001F, U+007F). Names and titles are
 * shown in emails and pages, where a line break or a tab would let a name pose as a paragraph of
 * its own. An action to put in a string pipe after `v.trim()`.
 */
export const noControlCharacters = v.check<string, string>((text) => !CONTROL_CHARACTER.test(text), 'Must not contain control characters');
