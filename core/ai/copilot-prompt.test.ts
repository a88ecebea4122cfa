import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoints, copilotPrompt, COPILOT_TONES, promptCharacters } from './copilot-prompt';

// UTF-16 code units of every kind, surrogates often enough that pairs, lone ones and a high one
// last all turn up: what a JavaScript string can hold.
const codeUnit = fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff }), fc.integer({ min: 0xe000, max: 0xffff }));
const codeUnits = fc.array(codeUnit, { maxLength: 40 }).map((units) => String.fromCharCode(...units));

describe('codePoints', () => {
  it('counts what the spread counts, surrogate pairs as one and lone surrogates as one each', () => {
    fc.assert(fc.property(codeUnits, (text) => codePoints(text) === [...text].length));
    expect(codePoints('a😀b')).toBe(3);
    expect(codePoints('\ud83d')).toBe(1);
    expect(codePoints('\ude00\ud83d')).toBe(2);
    expect(codePoints('')).toBe(0);
  });
});

describe('promptCharacters', () => {
  it('is the prompt around an empty note, for every feature and tone', () => {
    for (const feature of ['improve', 'summarize'] as const) {
      for (const tone of COPILOT_TONES) {
        const empty = copilotPrompt(feature, tone, { title: '', content: '' });
        expect(promptCharacters(feature, tone)).toBe([...empty.instructions].length + [...empty.input].length);
      }
    }
  });
});
