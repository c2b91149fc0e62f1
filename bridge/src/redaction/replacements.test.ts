/**
 * Remembered values are replaced in free text as whole tokens, the longest first: found by one
 * expression for them all, or (each case runs both) one value at a time while they are few and in one
 * pass over the text's runs when they are many.
 */
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
    expect(replacements.replace('{"a":"Maria Souza","b":"x Maria Souza"}')).toEqual({
      text: '{"a":"Abcde Fghij","b":"x Abcde Fghij"}',
      count: 2,
    });
    expect(replacements.replacePieces(['["Maria Souza"', ',', '"y"]'])).toEqual({
      text: ['["Abcde Fghij"', ',', '"y"]'],
      count: 1,
    });
    expect(replacements.replacesQuoted('Maria Souza', 'Abcde Fghij')).toBe(true);
    expect(replacements.replacesQuoted('Maria Souza', 'Other Name')).toBe(false);
    // Too short to be searched for: only the walk can put its pseudonym.
    expect(replacements.replacesQuoted('Ana', 'Bia')).toBe(false);
    // A value with a quote could be found across a string's edge, before the value the walk replaced.
    replacements.add('k":"Maria', 'q":"Zzzzz');
    expect(replacements.replacesQuoted('Maria Souza', 'Abcde Fghij')).toBe(false);
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
