/** The WebAssembly escaper writes what JSON.stringify writes, as UTF-8, for any well-formed text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutWebAssembly } from '../../test-support/without-webassembly.js';
import { createJsonEscaper, ESCAPE_SLICE } from './json-escape.js';

const escaper = createJsonEscaper()!;
const expected = (text: string) => Buffer.from(JSON.stringify(text).slice(1, -1));
const escaped = (text: string) => Buffer.from(escaper.escape(text)!);

describe('createJsonEscaper', () => {
  it('is built on this Node (it has WebAssembly), and is undefined without it (node --jitless)', async () => {
    expect(escaper).toBeDefined();
    expect(await withoutWebAssembly(createJsonEscaper)).toBeUndefined();
    expect((globalThis as { WebAssembly?: unknown }).WebAssembly).toBeDefined();
  });

  it('escapes every ASCII character and a few others as JSON.stringify does', () => {
    for (let code = 0; code < 0x80; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(escaped(text).equals(expected(text))).toBe(true);
    }
    for (const text of ['ação', '😀', '\u2028\u2029', '\u007f\u0080\u00ff', '', 'x'])
      expect(escaped(text).equals(expected(text))).toBe(true);
  });

  it('escapes a character at every place of the sixteen bytes looked at at once, and in the bytes left after them', () => {
    for (const char of ['"', '\\', '\u0001', '\n', '\u001f', ' ', '\u007f', 'é', '😀']) {
      for (let length = 0; length <= 40; length++) {
        for (let place = 0; place <= length; place++) {
          const text = `${'x'.repeat(place)}${char}${'y'.repeat(length - place)}`;
          expect(escaped(text).equals(expected(text)), JSON.stringify(text)).toBe(true);
        }
      }
    }
  });

  it('writes the longest slice at its largest, a control character each (six bytes each)', () => {
    for (const char of ['"', '\u0001', '\n', 'ã', '😀']) {
      const text = char.repeat(Math.floor(ESCAPE_SLICE / char.length));
      expect(escaped(text).equals(expected(text))).toBe(true);
    }
  });

  it('escapes sixteen bytes holding many bytes to escape, in any order (fast-check, fixed seed 2033: replays)', () => {
    const dense = fc.string({
      unit: fc.constantFrom('"', '\\', '\n', '\u0001', '\u001f', 'a', 'é'),
      maxLength: 80,
    });
    fc.assert(
      fc.property(dense, (value) => {
        expect(escaped(value).equals(expected(value))).toBe(true);
      }),
      { numRuns: 2_000, seed: 2033 },
    );
  });

  it('escapes any well-formed text as JSON.stringify does (fast-check, fixed seed 2032: replays)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 64 }),
      fc.string({
        unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
        maxLength: 64,
      }),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(escaped(value).equals(expected(value))).toBe(true);
      }),
      { numRuns: 1_000, seed: 2032 },
    );
  });

  it('leaves to JSON.stringify a text too long for its memory, and one with a lone surrogate', () => {
    expect(escaper.escape('x'.repeat(ESCAPE_SLICE + 1))).toBeUndefined();
    expect(escaper.escape('a\ud800b')).toBeUndefined();
    expect(escaper.escape('\udc00')).toBeUndefined();
  });
});
