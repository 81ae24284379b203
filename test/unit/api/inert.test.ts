// Text from outside dpx reaches the terminal inert: no control character, DEL or bidi override is left
// to act, whatever the text holds, and everything else is kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inertText } from '../../../src/api/security/inert.js';

const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('inertText', () => {
  it('leaves no character that drives a terminal, over all of Unicode', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(inertText(text)).not.toMatch(ACTIVE);
    }));
  });

  it('keeps every other character, and line breaks and tabs when asked', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      const kept = [...text].filter((char) => !ACTIVE.test(char)).join('');
      expect(inertText(kept)).toBe(kept);
    }));
    expect(inertText('a\tb\nc', { lines: true })).toBe('a\tb\nc');
    expect(inertText('\u001b]52;c;x\u0007')).toBe('\\u001b]52;c;x\\u0007');
  });
});
