/**
 * A long JSON body read in pieces: the pieces join into the text the whole bytes decode to, and the
 * value put together from them is the value of the whole text, whatever the records' strings hold
 * (the cut's own `},{`, brackets, quotes, escapes, any character); what cannot be cut for certain
 * (a cut inside a string, a list below the top member, pretty-printed JSON) is left to be read whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSplitJson, splitJsonBytes } from './json-split.js';

const TRICKY = ['},{', '[{', '}]', '"},{"id":"x"}', '\\"', '\\', 'ação 😀', '\u2028', '{"a":[{}]}'];

/** A page of `count` records whose `note` members cycle through `notes`. */
function page(count: number, notes: readonly string[]) {
  const results = Array.from({ length: count }, (_, index) => ({
    id: `rec-${index}`,
    note: notes[index % notes.length],
    amount: index * 1.5,
    tags: index % 3 === 0 ? [{ kind: 'a' }, null] : [],
    nested: { deep: [{ x: index }] },
  }));
  return { count, next: 'http://h/api/x/?page=2', previous: null, results };
}

/** The pieces of `value`'s JSON, checked against the whole text: joined, and parsed when they parse. */
function split(value: unknown): { pieces: string[] | undefined; parsed: unknown } {
  const text = JSON.stringify(value);
  const pieces = splitJsonBytes(Buffer.from(text));
  if (pieces === undefined) return { pieces, parsed: undefined };
  expect(pieces.join('')).toBe(text);
  const parsed = parseSplitJson(pieces);
  if (parsed !== undefined) expect(parsed).toEqual(JSON.parse(text));
  return { pieces, parsed };
}

describe('splitJsonBytes and parseSplitJson', () => {
  it("cut a page between its records, every piece far below a string's 128 KiB, and put it together", () => {
    const { pieces, parsed } = split(page(1500, TRICKY));
    expect(pieces!.length).toBeGreaterThan(5);
    expect(Math.max(...pieces!.map((piece) => piece.length))).toBeLessThan(40_000);
    expect(parsed).toBeDefined();
  });

  it('cut a top-level list as well', () => {
    expect(split(page(1500, TRICKY).results).parsed).toBeDefined();
  });

  it('leave a short body, pretty-printed JSON and a body without a list of objects alone', () => {
    expect(splitJsonBytes(Buffer.from(JSON.stringify(page(10, TRICKY))))).toBeUndefined();
    expect(splitJsonBytes(Buffer.from(JSON.stringify(page(1500, ['plain']), null, 2)))).toBeUndefined();
    // Strings that look like a list's brackets may be cut at: the parse then says the cut is no good.
    expect(split(JSON.parse(JSON.stringify(page(1500, TRICKY)))).pieces).toBeDefined();
    const pretty = splitJsonBytes(Buffer.from(JSON.stringify(page(1500, TRICKY), null, 2)));
    expect(pretty === undefined || parseSplitJson(pretty) === undefined).toBe(true);
    expect(splitJsonBytes(Buffer.from(JSON.stringify({ text: 'x'.repeat(100_000) })))).toBeUndefined();
  });

  it('say nothing of pieces cut inside a string, or around a list below the top member', () => {
    expect(parseSplitJson(['[', '{"a":"x}', ',', '{"b":"y"}', ']'])).toBeUndefined();
    expect(parseSplitJson(['{"m":{"x":[', '{"a":1}', ']}}'])).toBeUndefined();
    expect(parseSplitJson(['{"a":"[', '{}', ']"}'])).toBeUndefined();
    expect(parseSplitJson(['{"__proto__":[', '{}', ']}'])).toBeUndefined();
    expect(parseSplitJson(['{"a":[', '{"x":1}', ']}'])).toEqual({ a: [{ x: 1 }] });
  });

  it('hold for records with any strings (fast-check, fixed seed 47047: replays)', () => {
    const note = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(note, { minLength: 1, maxLength: 30 }), fc.boolean(), (notes, top) => {
        const value = page(400, notes);
        split(top ? value.results : value);
      }),
      { numRuns: 12, seed: 47047 },
    );
  });
});
