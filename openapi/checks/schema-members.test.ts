import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../document/json.js';
import { memberDifferences } from './member-differences.js';
import {
  loadProviderFacts,
  type ProviderFacts,
  parseProviderFacts,
  serializeFacts,
} from './provider-facts.js';
import { componentDeref, flattenSchema, type MemberFacts } from './schema-members.js';

const components: JsonObject = {
  Money: { type: 'number', minimum: 0 },
  Card: {
    type: 'object',
    required: ['limit'],
    properties: { limit: { $ref: '#/Money' }, due: { type: 'string' } },
  },
  Yearly: {
    type: 'object',
    required: ['year', 'kind'],
    properties: { year: { type: 'integer' }, kind: { const: 'Y' } },
  },
  Monthly: {
    type: 'object',
    required: ['kind'],
    properties: { kind: { type: 'string' }, month: { type: 'integer' } },
  },
  Colombian: { type: 'object', properties: { nit: { type: 'string' } } },
};
const deref = componentDeref(components, '#/');
const flat = (schema: JsonObject, options: { openapi30?: boolean } = {}) =>
  Object.fromEntries(flattenSchema(schema, { deref, skipBranch: (ref) => ref === 'Colombian', ...options }));

describe('flattenSchema: members by path, read the loosest way', () => {
  it('walks properties, items and $refs, with requiredness relative to the parent', () => {
    const members = flat({
      type: 'array',
      items: { type: 'object', properties: { card: { $ref: '#/Card' } } },
    });
    expect(Object.keys(members)).toEqual(['', '[]', '[].card', '[].card.limit', '[].card.due']);
    expect(members['[].card.limit']).toEqual({
      type: ['number'],
      nullable: false,
      required: true,
      bounds: { minimum: 0 },
    });
    expect(members['[].card']?.required).toBe(false);
  });

  it('oneOf: a member keeps only what every branch says; required only where every branch requires it', () => {
    const members = flat({ oneOf: [{ $ref: '#/Yearly' }, { $ref: '#/Monthly' }, { $ref: '#/Colombian' }] });
    expect(members.kind).toEqual({ type: ['string'], nullable: false, required: true });
    expect(members.year).toMatchObject({ required: false, type: ['integer'] });
    expect(members.nit).toBeUndefined(); // the left-out branch
  });

  it('allOf: the parts add up; a null branch makes a member nullable', () => {
    const members = flat({
      type: 'object',
      properties: {
        card: { oneOf: [{ allOf: [{ $ref: '#/Card' }, { required: ['due'] }] }, { type: 'null' }] },
      },
    });
    expect(members.card).toMatchObject({ type: ['object'], nullable: true });
    expect(members['card.due']?.required).toBe(true);
  });

  it('OpenAPI 3.0 nullable, a required name with no declaration, a closed object', () => {
    const members = flat(
      {
        type: 'object',
        required: ['note'],
        additionalProperties: false,
        properties: { a: { type: 'string', nullable: true } },
      },
      { openapi30: true },
    );
    expect(members.a?.nullable).toBe(true);
    expect(members.note).toEqual({ nullable: true, required: true, declared: false });
    expect(members['']?.constraints).toEqual(['closed']);
  });
});

describe('memberDifferences: what is stricter, only ours, looser', () => {
  it('a stricter member is named once for every way it is stricter', () => {
    const ours = { x: member({ type: ['string'], required: true, pattern: ['^a$'], enum: ['A'] }) };
    const theirs = { x: member({ type: ['string'], nullable: true }) };
    expect(memberDifferences(ours, theirs)).toEqual([
      { kind: 'stricter', text: 'x: required true vs false' },
      { kind: 'stricter', text: 'x: nullable false vs true' },
      { kind: 'stricter', text: 'x: enum [A] vs none' },
      { kind: 'stricter', text: 'x: pattern ^a$ vs none' },
    ]);
  });

  it('integer is within number; a member the provider requires without a type has no type to be stricter than', () => {
    const theirs = {
      n: member({ type: ['integer'] }),
      d: member({ required: true, nullable: true, declared: false }),
    };
    const ours = { n: member({ type: ['number'] }), d: member({ type: ['string'], required: true }) };
    expect(memberDifferences(ours, theirs).filter((d) => d.kind === 'stricter')).toEqual([]);
  });

  it("a required member only ours has is stricter where its parent is the provider's, else only ours", () => {
    const theirs = { '': member({ type: ['object'] }) };
    const ours = {
      '': member({ type: ['object'] }),
      a: member({ required: true }),
      b: member({}),
      'b.c': member({ required: true }),
    };
    expect(memberDifferences(ours, theirs)).toEqual([
      { kind: 'stricter', text: 'a: only ours, required' },
      { kind: 'ours-only', text: 'b: only ours' },
      { kind: 'ours-only', text: 'b.c: only ours' },
    ]);
  });

  it('a minProperties up to the number of members the provider requires refuses nothing', () => {
    const theirs = { '': member({ type: ['object'] }), a: member({ required: true }) };
    const ours = { '': member({ type: ['object'], bounds: { minProperties: 1 } }), a: member({}) };
    expect(memberDifferences(ours, theirs).filter((d) => d.kind === 'stricter')).toEqual([]);
  });
});

describe('provider-facts.json', () => {
  it('the committed facts cover the 61 shared operations and say what they leave out, with its section', () => {
    const facts = loadProviderFacts();
    expect(Object.keys(facts.operations)).toHaveLength(61);
    expect(facts.left_out).toEqual([expect.objectContaining({ components: 'Dian', spec: 'Data areas' })]);
    expect(facts.operations['GET /api/transactions/']?.responses['200']?.['results[].amount']).toMatchObject({
      type: ['number'],
    });
  });

  it('written and read back, repeated records by reference, the facts are the same', () => {
    const record = { '': member({ type: ['object'] }) };
    const facts: ProviderFacts = {
      about: 'test',
      version: '0',
      left_out: [],
      operations: {
        'POST /x/': { responses: { '200': record, '201': structuredClone(record) }, request: {}, query: {} },
        'GET /x/': { responses: { '200': structuredClone(record) }, query: {} },
      },
    };
    const text = serializeFacts(facts);
    expect(text).toContain('"201": "= POST /x/ 200"');
    expect(parseProviderFacts(text)).toEqual(facts);
    expect(() => parseProviderFacts(text.replace('= POST /x/ 200', '= POST /y/ 200'))).toThrow(/unknown/);
  });
});

function member(facts: Partial<MemberFacts>): MemberFacts {
  return { nullable: false, required: false, ...facts };
}
