/** What JSON.stringify writes, as tokens.ts reads it without writing it: for any text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapedAsJsonWrites, writtenAsItIs } from './tokens.js';

describe('writtenAsItIs', () => {
  it('says whether JSON writes a text as it is, for any text (fast-check, fixed seed 2029: replays)', () => {
    for (const text of ['', 'ação 😀', 'a"b', 'a\\b', '\u001f', '\ud800', '\udc00x', 'x\ud83d', '\u2028'])
      expect(writtenAsItIs(text)).toBe(JSON.stringify(text) === `"${text}"`);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), (text) => {
        expect(writtenAsItIs(text)).toBe(JSON.stringify(text) === `"${text}"`);
      }),
      { numRuns: 500, seed: 2029 },
    );
  });
});

describe('escapedAsJsonWrites', () => {
  it('holds for what JSON.stringify writes of any value without a lone surrogate (fast-check, fixed seed 2031: replays)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const tricky = fc.constantFrom('a"b', 'a\\b', '\b\t\n\f\r', '\u0000\u001f', 'ação 😀', '/', '\u2028');
    fc.assert(
      fc.property(fc.array(fc.oneof(text, tricky), { maxLength: 6 }), (strings) => {
        expect(escapedAsJsonWrites(JSON.stringify({ strings }))).toBe(true);
      }),
      { numRuns: 300, seed: 2031 },
    );
  });

  it('fails for escapes JSON.stringify does not write', () => {
    for (const text of [
      '"Jo\\u00e3o"',
      '"a\\/b"',
      '"\\u000A"',
      '"\\u000a"',
      '"\\u0041"',
      '"\\ud83d\\ude00"',
      '"\\x41"',
      '"a\\',
    ])
      expect(escapedAsJsonWrites(text)).toBe(false);
    expect(escapedAsJsonWrites('"\\u001f\\u0000 \\n\\\\ \\""')).toBe(true);
  });
});
