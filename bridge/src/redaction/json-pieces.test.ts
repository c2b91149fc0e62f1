/**
 * A redacted body written in pieces is JSON.stringify's text exactly, and searching its pieces one by
 * one for the values redacted so far replaces what a search of the whole text replaces, values beside
 * a piece's edge and values that hold the characters between pieces (`[`, `]`, `,`) included; the one
 * expression that finds them all replaces what the searches it stands for replace.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitJsonBytes } from '../exchange/json-split.js';
import { stringifiedPieces } from './json-pieces.js';
import { createReplacements } from './replacements.js';

/** Values cut from `whole` anywhere, 1 to 12 characters long. */
const cutFrom = (whole: string) =>
  fc
    .tuple(fc.nat({ max: whole.length - 1 }), fc.integer({ min: 1, max: 12 }))
    .map(([start, length]) => whole.slice(start, start + length));

const records = (count: number, note: (index: number) => unknown) =>
  Array.from({ length: count }, (_, index) => ({ id: `r${index}`, note: note(index), n: index }));

describe('stringifiedPieces', () => {
  it("join into JSON.stringify's text: a page, a list, short lists, scalars, odd member names", () => {
    const values: unknown[] = [
      { count: 20, next: null, results: records(20, (i) => `n ${i} "q" \\ ação`), tail: [1, 2] },
      records(30, (i) => [i, null, { x: 'y' }]),
      [1, 'two', null],
      'text',
      12.5,
      null,
      { short: [1, 2, 3], other: { list: records(9, () => 'x') } },
      JSON.parse('{"__proto__":{"a":1},"list":[1,2,3,4,5,6,7,8,9,10]}'),
      Array.from({ length: 12 }, (_, index) => (index % 2 ? 'a' : 7)),
    ];
    for (const value of values) expect(stringifiedPieces(value).join('')).toBe(JSON.stringify(value));
    expect(stringifiedPieces(values[0]).length).toBe(2 * 20 + 1);
  });

  it('hold for any JSON value in a long list (fast-check, fixed seed 47048: replays)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (member, top) => {
        const list = Array.from({ length: 10 }, () => member);
        const value = top ? list : { before: member, list, after: member };
        expect(stringifiedPieces(value).join('')).toBe(JSON.stringify(value));
      }),
      { numRuns: 200, seed: 47048 },
    );
  });
});

describe('Replacements.replaceJsonPieces', () => {
  /** Values found in the page's text, with and without the characters between pieces. */
  const page = { count: 40, results: records(40, (i) => (i % 4 ? `Maria ${i % 7}` : ['alpha', i])) };
  const pieces = stringifiedPieces(page);
  const text = pieces.join('');
  /** A list of scalars: pieces that start and end with word characters. */
  const scalars = Array.from({ length: 40 }, (_, i) => [12, 'a1', true, null, -3.5, false, 'Maria 3'][i % 7]);
  const valueSets = [
    ['Maria 3', 'alpha', 'r12'],
    ['Maria 3', 'alpha', '"r12"', '{"id":"r3"'],
    ['alpha",', '[', 'r1"'],
    Array.from({ length: 30 }, (_, index) => `Maria ${index % 7}${index > 6 ? `-${index}` : ''}`),
    [...Array.from({ length: 30 }, (_, index) => `unseen-${index}`), '},{"id":"r5"', 'alpha'],
  ];

  it.each(valueSets.map((values, index) => [index, values] as const))(
    'replace what a search of the whole text replaces (values %i)',
    (_index, values) => {
      const replacements = createReplacements(() => 1);
      for (const [index, value] of values.entries()) replacements.add(value, `P${index}x`);
      expect(replacements.replaceJsonPieces(pieces, 'items').text.join('')).toBe(
        replacements.applyJson(text),
      );
    },
  );

  it('give the same pieces back when nothing is replaced', () => {
    const replacements = createReplacements(() => 1);
    replacements.add('nowhere-to-be-found', 'X');
    expect(replacements.replaceJsonPieces(pieces, 'items').text).toBe(pieces);
  });

  it.each([
    ['a page', page],
    ['a list of scalars', scalars],
  ])('hold for values cut from %s anywhere (fast-check, fixed seed 47049: replays)', (_name, value) => {
    const parts = stringifiedPieces(value);
    const whole = parts.join('');
    const cut = cutFrom(whole);
    fc.assert(
      fc.property(fc.array(cut, { minLength: 1, maxLength: 24 }), (values) => {
        // The expressions, and the searches they stand for (one value at a time, the pass over runs).
        const replacements = createReplacements(() => 1);
        const searches = createReplacements(() => 1, { pattern: false });
        for (const [index, found] of values.entries()) {
          replacements.add(found, `V${index}v`);
          searches.add(found, `V${index}v`);
        }
        const expected = searches.applyJson(whole);
        expect(replacements.applyJson(whole)).toBe(expected);
        expect(replacements.replaceJsonPieces(parts, 'items').text.join('')).toBe(expected);
      }),
      { numRuns: 300, seed: 47049 },
    );
  });
});

describe('Replacements.replaceJsonPieces over the pieces a long body was read in (cut between objects)', () => {
  /** A page long enough to be cut (exchange/json-split.ts), notes with commas, brackets and escapes. */
  const notes = ['Av. Paulista 1000, 5', 'late,comma-7781', '[x]', 'a "q" \\ b'];
  const page = { count: 1000, results: records(1000, (i) => `${notes[i % notes.length]} ${i}`), next: null };
  const whole = JSON.stringify(page);
  const pieces = splitJsonBytes(Buffer.from(whole))!;

  it('are searched piece by piece when no value holds what is between two objects', () => {
    expect(pieces.length).toBeGreaterThan(3);
    const replacements = createReplacements(() => 1);
    replacements.add('Av. Paulista 1000, 5', 'Zz. Zzzzzzzz 9999, 9');
    replacements.add('late,comma-7781', 'zzzz,zzzzz-9999');
    const replaced = replacements.replaceJsonPieces(pieces, 'objects');
    expect(replaced.text.length).toBe(pieces.length);
    expect(replaced.text.join('')).toBe(replacements.applyJson(whole));
    // Around each item, the same values could meet a piece's edge: the text is searched whole.
    expect(replacements.replaceJsonPieces(pieces, 'items').text.length).toBe(1);
  });

  it('are searched whole when a value holds what is between two objects at a cut', () => {
    // A value found across a cut holds no quote (a JSON text holds a value's quote escaped, and a
    // structural one never is): numbers and the list's punctuation only, as at these three cuts.
    const tail = pieces.at(-2)!;
    for (const value of [':[{', `${pieces[1]!.slice(-4)},`, ',{', `${tail.slice(-4)}],`]) {
      expect(value).not.toContain('"');
      const replacements = createReplacements(() => 1);
      replacements.add(value, 'X'.repeat(value.length));
      expect(replacements.applyJson(whole)).not.toBe(whole);
      expect(replacements.replaceJsonPieces(pieces, 'objects').text.join('')).toBe(
        replacements.applyJson(whole),
      );
    }
  });

  it('replace what a search of the whole text replaces, for values cut from it anywhere (fast-check, fixed seed 47050: replays)', () => {
    const cut = cutFrom(whole);
    fc.assert(
      fc.property(fc.array(cut, { minLength: 1, maxLength: 24 }), (values) => {
        const replacements = createReplacements(() => 1);
        for (const [index, found] of values.entries()) replacements.add(found, `V${index}v`);
        expect(replacements.replaceJsonPieces(pieces, 'objects').text.join('')).toBe(
          replacements.applyJson(whole),
        );
      }),
      { numRuns: 300, seed: 47050 },
    );
  });
});
