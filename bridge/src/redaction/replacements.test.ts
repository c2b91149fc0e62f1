/**
 * Remembered values are replaced in free text as whole tokens, the longest first: found by an
 * expression per class of first character, or (each case runs both) one value at a time while they are
 * few and in one pass over the text's runs when they are many.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReplacements as createFew } from './replacements.js';

/** Values that are never in the texts below, enough of them to need the pass over the runs. */
const MANY = Array.from({ length: 40 }, (_, index) => [`unseen-value-${index}`, `other-value-${index}`]);

describe.each([
  ['few values', 0, true],
  ['many values', MANY.length, true],
  ['few values, searched one at a time', 0, false],
  ['many values, in one pass over the runs', MANY.length, false],
])('createReplacements with %s', (_name, fillers, pattern) => {
  const createReplacements = (minLength: (raw: string) => number) => {
    const replacements = createFew(minLength, { pattern });
    for (const [raw, pseudonym] of MANY.slice(0, fillers)) replacements.add(raw!, pseudonym!);
    return replacements;
  };

  it('replaces whole tokens only, the longest match first, every occurrence', () => {
    const replacements = createReplacements(() => 4);
    replacements.add('123456', 'XXXXXX');
    replacements.add('Maria Souza', 'Abcde Fghij');
    replacements.add('Maria', 'Zzzzz');
    expect(replacements.apply('id 000123456 and 123456, "Maria Souza" then Maria.')).toBe(
      'id 000123456 and XXXXXX, "Abcde Fghij" then Zzzzz.',
    );
    expect(replacements.apply('IMSS-123456')).toBe('IMSS-XXXXXX');
    expect(replacements.get('Maria')).toBe('Zzzzz');
  });

  it('counts what it replaced, and says when a whole JSON string of a value is sure to be replaced', () => {
    const replacements = createReplacements(() => 5);
    replacements.add('Maria Souza', 'Abcde Fghij');
    replacements.add('Ana', 'Bia');
    expect(replacements.replaceJson('{"a":"Maria Souza","b":"x Maria Souza"}')).toEqual({
      text: '{"a":"Abcde Fghij","b":"x Abcde Fghij"}',
      count: 2,
    });
    expect(replacements.replaceJsonPieces(['["Maria Souza"', ',', '"y"]'], 'items')).toEqual({
      text: ['["Abcde Fghij"', ',', '"y"]'],
      count: 1,
    });
    expect(replacements.replacesQuoted('Maria Souza', 'Abcde Fghij')).toBe(true);
    expect(replacements.replacesQuoted('Maria Souza', 'Other Name')).toBe(false);
    // Too short to be searched for: only the walk can put its pseudonym.
    expect(replacements.replacesQuoted('Ana', 'Bia')).toBe(false);
    // A value with a quote is searched for in a JSON text as JSON writes it: never across a string's edge.
    replacements.add('k":"Maria', 'q":"Zzzzz');
    expect(replacements.replacesQuoted('Maria Souza', 'Abcde Fghij')).toBe(true);
    expect(replacements.replacesQuoted('k":"Maria', 'q":"Zzzzz')).toBe(false);
  });

  it("finds a value in a JSON text in its JSON form, never across a member's edge", () => {
    const replacements = createReplacements(() => 4);
    replacements.add('k":"Maria', 'q":"Zzzzz');
    replacements.add('C:\\dados', 'X:\\zzzzz');
    const text = JSON.stringify({ k: 'Maria Souza', note: 'k":"Maria', path: 'em C:\\dados.' });
    expect(JSON.parse(replacements.applyJson(text))).toEqual({
      k: 'Maria Souza',
      note: 'q":"Zzzzz',
      path: 'em X:\\zzzzz.',
    });
    // Read as it is (a header, a URL), the value is what it is.
    expect(replacements.apply('a k":"Maria b')).toBe('a q":"Zzzzz b');
  });

  it('reads an escape in a JSON text as the character it stands for', () => {
    const replacements = createReplacements(() => 4);
    replacements.add('Maria Souza', 'Abcde Fghij');
    replacements.add('nMaria', 'xQqqqq');
    replacements.add('0041Maria', '9999Zzzzz');
    // After a line break or a tab, before one, after an escaped backslash: whole tokens.
    expect(replacements.applyJson('["Pix de\\nMaria Souza\\t", "\\\\Maria Souza\\r\\n"]')).toBe(
      '["Pix de\\nAbcde Fghij\\t", "\\\\Abcde Fghij\\r\\n"]',
    );
    // The letter of an escape starts no value; after an escaped backslash, `n` is a letter as it is.
    expect(replacements.applyJson('["\\nMaria", "\\\\nMaria"]')).toBe('["\\nMaria", "\\\\xQqqqq"]');
    // `\u0041` is `A` (no value starts inside it), `\u00e3` is `ã`: word characters; `\u0020` is a space.
    expect(replacements.applyJson('["\\u0041Maria Souza", "Maria Souza\\u00e3", "Maria Souza\\u0020"]')).toBe(
      '["\\u0041Maria Souza", "Maria Souza\\u00e3", "Abcde Fghij\\u0020"]',
    );
    // The same text read as it is: the `n` is a letter, so `nMaria` is a token and `Maria Souza` none.
    expect(replacements.apply('de\\nMaria Souza\\t')).toBe('de\\xQqqqq Souza\\t');
  });

  it('replaces in a JSON text what the search replaces in each string it holds (fast-check, fixed seed 2028: replays)', () => {
    const tricky = fc.constantFrom('Maria "Mafê"', 'a\nb', '\\', '\u0001', '\ud800', '😀', 'ã', ' ', 'x');
    const string = fc
      .array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 8 })
      .map((parts) => parts.join(''));
    const cut = (text: string, start: number, length: number) =>
      text.slice(start % (text.length + 1)).slice(0, length);
    fc.assert(
      fc.property(
        fc.array(string, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 12 })), {
          minLength: 1,
          maxLength: 10,
        }),
        (strings, cuts) => {
          const replacements = createReplacements(() => 1);
          for (const [which, start, length] of cuts) {
            const value = cut(strings[which % strings.length]!, start, length);
            // A value needs a letter or digit: one of punctuation only could be found between members.
            if (/[0-9A-Za-z\u0080-\uffff]/.test(value)) replacements.add(value, `V${which}-${start}`);
          }
          const text = JSON.stringify({ list: strings });
          expect(JSON.parse(replacements.applyJson(text))).toEqual({
            list: strings.map((each) => replacements.apply(each)),
          });
        },
      ),
      { numRuns: 200, seed: 2028 },
    );
  });

  it('keeps the first pseudonym of a value, and searches nothing shorter than its minimum', () => {
    const replacements = createReplacements((raw) => (raw === 'abc' ? 5 : 1));
    replacements.add('abc', 'xyz');
    replacements.add('abc', 'qqq');
    expect(replacements.get('abc')).toBe('xyz');
    expect(replacements.apply('abc')).toBe('abc');
    replacements.add('k', 'z');
    expect(replacements.apply('a k b')).toBe('a z b');
  });

  it('finds values that start or end with punctuation, values of punctuation only, and repeats of a first run', () => {
    const replacements = createReplacements(() => 4);
    replacements.add('(11) 9876-5432', '(22) 1234-0000');
    replacements.add('+55 11 91234', '+66 22 00000');
    replacements.add('11 91234', '99 99999');
    replacements.add('#!#!', '%%%%');
    replacements.add('Maria Souza', 'Abcde Fghij');
    replacements.add('Maria Souza Lima', 'Qwert Yuiop Asdf');
    expect(replacements.apply('tel (11) 9876-5432, cel +55 11 91234; x#!#!y #!#! 11 91234')).toBe(
      'tel (22) 1234-0000, cel +66 22 00000; x#!#!y %%%% 99 99999',
    );
    expect(replacements.apply('Maria Souza Lima and Maria Souza and Maria Souzas')).toBe(
      'Qwert Yuiop Asdf and Abcde Fghij and Maria Souzas',
    );
  });
});
