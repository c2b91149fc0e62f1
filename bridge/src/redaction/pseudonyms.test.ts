/**
 * Pseudonyms: deterministic under one key, different under another, of the same shape and format as
 * the value, valid against the member's schema (falling back to the schema's example), and a constant
 * or an enumerated value kept.
 */
import { describe, expect, it } from 'vitest';
import { createPseudonymizer } from './pseudonyms.js';

const one = createPseudonymizer(Buffer.alloc(32, 1));
const other = createPseudonymizer(Buffer.alloc(32, 2));

describe('pseudonyms', () => {
  it('are the same for the same value and key, different under another key', () => {
    expect(one.of('123.456.789-09')).toBe(one.of('123.456.789-09'));
    expect(one.of('123.456.789-09')).not.toBe(other.of('123.456.789-09'));
    expect(one.of('Maria Souza')).not.toBe('Maria Souza');
  });

  it('keep the shape: digits, cases, punctuation, length; hex stays hex', () => {
    expect(one.of('123.456.789-09')).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    expect(one.of('Maria Souza')).toMatch(/^[A-Z][a-z]{4} [A-Z][a-z]{4}$/);
    expect(one.of('maria.souza@example.com')).toMatch(/^[a-z]{5}\.[a-z]{5}@[a-z]{7}\.[a-z]{3}$/);
    expect(one.of('0123456789abcdef0123456789abcdef')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keep the format a schema names: date, date-time, uuid', () => {
    const date = one.of('1985-03-15', [{ format: 'date' }]);
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(String(date)))).toBe(false);
    expect(one.of('2026-10-01T12:00:00.000Z', [{ format: 'date-time' }])).toMatch(
      /^\d{4}-\d{2}-\d{2}T12:00:00\.000Z$/,
    );
    expect(one.of('3f2a9c1e-1111-4111-8111-111111111111', [{ format: 'uuid' }])).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('keep a first digit that is not 0 one that is not 0: the value may stand as a JSON number elsewhere', () => {
    for (let value = 10_000; value < 10_300; value++)
      expect(String(one.of(String(value)))).toMatch(/^[1-9]\d{4}$/);
    expect(
      new Set(Array.from({ length: 300 }, (_, index) => String(one.of(String(20_000 + index)))[0])).size,
    ).toBe(9);
  });

  it('keep numbers numbers with as many digits and decimals', () => {
    const pseudonym = one.of(4321.55);
    expect(typeof pseudonym).toBe('number');
    expect(String(pseudonym)).toMatch(/^\d{4}\.\d{1,2}$/);
  });

  it('validate against the schema, else take its example; constants and enums stay', () => {
    const startsWithCpf = (candidate: unknown) => String(candidate).startsWith('CPF');
    expect(one.of('XYZ-1', [{ examples: ['CPF-9'] }], startsWithCpf)).toBe('CPF-9');
    expect(one.of('BR', [{ const: 'BR' }])).toBe('BR');
    expect(one.of('INDIVIDUAL', [{ enum: ['INDIVIDUAL', 'BUSINESS'] }])).toBe('INDIVIDUAL');
  });
});
