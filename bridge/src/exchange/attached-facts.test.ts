import { describe, expect, it } from 'vitest';
import { attachedFact } from './attached-facts.js';

describe('attachedFact', () => {
  it('reads back what was set on the holder, and nothing on another', () => {
    const fact = attachedFact<string[]>('pieces');
    const holder = { body: 'ab' };
    fact.set(holder, ['a', 'b']);
    expect(fact.get(holder)).toEqual(['a', 'b']);
    expect(fact.has(holder)).toBe(true);
    expect(fact.get({ body: 'ab' })).toBeUndefined();
    expect(fact.has({ body: 'ab' })).toBe(false);
  });

  it('tells a fact set to undefined from none (a body that is no JSON was read once)', () => {
    const fact = attachedFact<unknown>('parsed');
    const holder = {};
    fact.set(holder, undefined);
    expect(fact.has(holder)).toBe(true);
    expect(fact.get(holder)).toBeUndefined();
  });

  it('is set again on the same holder (the latest wins)', () => {
    const fact = attachedFact<number>('count');
    const holder = {};
    fact.set(holder, 1);
    fact.set(holder, 2);
    expect(fact.get(holder)).toBe(2);
  });

  it('leaves the holder as a copy, a JSON text and its keys see it', () => {
    const fact = attachedFact<string>('secret');
    const holder = { body: 'x' };
    fact.set(holder, 'kept');
    const copy = { ...holder };
    expect(fact.get(copy)).toBeUndefined();
    expect(JSON.stringify(holder)).toBe('{"body":"x"}');
    expect(Object.keys(holder)).toEqual(['body']);
    expect(structuredClone(holder)).toEqual({ body: 'x' });
  });

  it('keeps two facts of the same name apart', () => {
    const first = attachedFact<number>('same');
    const second = attachedFact<number>('same');
    const holder = {};
    first.set(holder, 1);
    expect(second.get(holder)).toBeUndefined();
  });

  it('keeps a fact of a frozen holder too (beside it), and reads it back', () => {
    const fact = attachedFact<string[]>('pieces');
    const holder = Object.freeze({ body: 'ab' });
    fact.set(holder, ['a', 'b']);
    expect(fact.get(holder)).toEqual(['a', 'b']);
    expect(fact.has(holder)).toBe(true);
    fact.set(holder, ['ab']);
    expect(fact.get(holder)).toEqual(['ab']);
    expect(fact.has(Object.freeze({ body: 'ab' }))).toBe(false);
    expect(Object.getOwnPropertySymbols(holder)).toEqual([]);
  });

  it('reads the latest fact of a holder frozen after its first one', () => {
    const fact = attachedFact<number>('count');
    const holder = { body: 'ab' };
    fact.set(holder, 1);
    Object.freeze(holder);
    fact.set(holder, 2);
    expect(fact.get(holder)).toBe(2);
    expect(fact.has(holder)).toBe(true);
  });
});
