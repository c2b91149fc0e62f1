/** Remembered values are replaced in free text as whole tokens, the longest first, in one pass. */
import { describe, expect, it } from 'vitest';
import { createReplacements } from './replacements.js';

describe('createReplacements', () => {
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

  it('keeps the first pseudonym of a value, and searches nothing shorter than its minimum', () => {
    const replacements = createReplacements((raw) => (raw === 'abc' ? 5 : 1));
    replacements.add('abc', 'xyz');
    replacements.add('abc', 'qqq');
    expect(replacements.get('abc')).toBe('xyz');
    expect(replacements.apply('abc')).toBe('abc');
    replacements.add('k', 'z');
    expect(replacements.apply('a k b')).toBe('a z b');
  });
});
