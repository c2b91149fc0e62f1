import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerArena } from './answer-arena.js';

describe('AnswerArena', () => {
  it('gives back a text kept in pieces, characters of any width across the cuts', () => {
    const arena = new AnswerArena(1_000);
    const pieces = ['{"name":"Jo', 'ão 😀"', ',"n":1}'];
    const slot = arena.keep(pieces)!;
    expect(arena.text(slot)).toBe(pieces.join(''));
    expect(slot.length).toBe(Buffer.byteLength(pieces.join('')));
  });

  it('refuses a text longer than the whole buffer, and keeps the rest', () => {
    const arena = new AnswerArena(10);
    const kept = arena.keep(['12345'])!;
    expect(arena.keep(['12345678901'])).toBeUndefined();
    expect(arena.text(kept)).toBe('12345');
  });

  it('forgets an answer once later ones wrote over it, and no sooner', () => {
    const arena = new AnswerArena(10);
    const first = arena.keep(['aaaa'])!; // bytes 0-3
    const second = arena.keep(['bbbb'])!; // 4-7
    const third = arena.keep(['ccc'])!; // 8-10 would pass the end: a new lap, 0-2
    expect(arena.text(first)).toBeUndefined();
    expect(arena.text(second)).toBe('bbbb');
    expect(arena.text(third)).toBe('ccc');
    arena.keep(['d']); // 3: short of the second's start
    expect(arena.text(second)).toBe('bbbb');
    arena.keep(['e']); // 4: the second's start
    expect(arena.text(second)).toBeUndefined();
    expect(arena.text(third)).toBe('ccc');
  });

  it('gives back exactly the answers no later write reached (fast-check, fixed seed 4712: replays)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 40 }), (texts) => {
        const capacity = 48;
        const arena = new AnswerArena(capacity);
        // A model: the bytes of every position, written by which answer.
        const owner: (number | undefined)[] = new Array(capacity).fill(undefined);
        const slots = texts.map((text, index) => {
          const slot = arena.keep([text]);
          if (slot !== undefined)
            for (let at = slot.start; at < slot.start + slot.length; at++) owner[at] = index;
          return slot;
        });
        slots.forEach((slot, index) => {
          if (slot === undefined) return;
          const untouched = owner.slice(slot.start, slot.start + slot.length).every((o) => o === index);
          const text = arena.text(slot);
          // Never a text another answer wrote over; an untouched answer of this lap or the last is there.
          if (text !== undefined) expect(text).toBe(texts[index]);
          if (text !== undefined) expect(untouched).toBe(true);
        });
        const latest = slots.findLast((slot) => slot !== undefined);
        if (latest !== undefined) expect(arena.text(latest)).toBe(texts[slots.lastIndexOf(latest)]);
      }),
      { seed: 4712, numRuns: 300 },
    );
  });
});
