/**
 * FILTER-LOOKUP: the provider's other filters (exact match, `__gt`, `__gte`, `__lt`, `__lte`,
 * `__not_in`, `__icontains`, `__allin`, and `iexact` where an `x-filter` names it: an exact match
 * whatever the case) answer exactly the records of the full list that match, in the
 * list's order. The targets are every such parameter the lists declare, with the member and lookup its
 * name or its `x-filter` says; the values are drawn from what the records hold now (a bound lying on a
 * record tells `__gt` from `__gte`), so a filter keeps some records and drops others. Dates: a day
 * compares the member's date part; numbers compare as numbers.
 */
import fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiParameter } from '../../../../openapi/document/operation-index.js';
import { defineRule, fail, isSkip, type SuiteContext, skip } from '../rule.js';
import { isListOperation } from '../schema/drawn-list-queries.js';
import { fieldAt, fieldTexts } from './filter-targets.js';
import { type ListSource, listSources } from './list-sources.js';
import { idsOf, readAll } from './read-list.js';

type Lookup = 'exact' | 'iexact' | 'gt' | 'gte' | 'lt' | 'lte' | 'not_in' | 'icontains' | 'allin';
const SUFFIXES: Lookup[] = ['not_in', 'gte', 'gt', 'lte', 'lt', 'icontains', 'allin'];
/** Lookups FILTER-IN and FILTER-RANGE test, and parameters that page or shape rather than filter. */
const OTHER_RULES = new Set(['in', 'range']);
const NOT_FILTERS = new Set(['page', 'page_size', 'link']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;
const MAX_KNOWN = 30;

interface Target {
  source: ListSource;
  param: string;
  member: string;
  lookup: Lookup;
  /** Values the member holds now, as the parameter's schema takes them. */
  known: string[];
}

interface Input {
  target: Target;
  value: string;
}

function specOf(parameter: ApiParameter): { member: string; lookup: string } {
  const suffix = [...SUFFIXES, 'in', 'range'].find((s) => parameter.name.endsWith(`__${s}`));
  const stem = suffix === undefined ? parameter.name : parameter.name.slice(0, -(suffix.length + 2));
  return {
    member: parameter.filter?.member ?? stem,
    lookup: parameter.filter?.lookup ?? suffix ?? 'exact',
  };
}

/** A value the parameter's schema accepts (numbers coerced as a server reads a query string). */
function acceptedBy(suite: SuiteContext, parameter: ApiParameter): (value: string) => boolean {
  const validate = suite.document.ajv.compile(parameter.schema);
  const resolved = suite.document.resolve(parameter.schema);
  const numeric = isObject(resolved) && (resolved.type === 'integer' || resolved.type === 'number');
  return (value) => !value.includes(',') && validate(numeric ? Number(value) : value) === true;
}

/** The texts a target may use: a date-time member's day for bounds and exact matches. */
function knownValues(records: JsonObject[], member: string, lookup: Lookup): string[] {
  const texts = records.flatMap((record) => fieldTexts(fieldAt(record, member)));
  const days = lookup === 'icontains' ? texts : texts.map((t) => (DATE_TIME.test(t) ? t.slice(0, 10) : t));
  return [...new Set(days)].slice(0, MAX_KNOWN);
}

async function lookupTargets(suite: SuiteContext, note: (text: string) => void): Promise<Target[]> {
  const targets: Target[] = [];
  for (const source of await listSources(suite, note)) {
    const operation = suite.document.operation(source.operationId)!;
    const params = operation.parameters.filter(
      (p) => p.in === 'query' && !p.shapesResponse && !NOT_FILTERS.has(p.name) && !(p.name in source.base),
    );
    const chosen = params
      .map((parameter) => ({ parameter, ...specOf(parameter) }))
      .filter(({ lookup }) => !OTHER_RULES.has(lookup));
    if (chosen.length === 0) continue;
    const records = await suite.fixtures.listAll(source.path, source.base, source.headers);
    if (isSkip(records)) {
      note(`${source.path} left out: ${records.skip}`);
      continue;
    }
    for (const { parameter, member, lookup } of chosen) {
      const accepted = acceptedBy(suite, parameter);
      const known = knownValues(records, member, lookup as Lookup).filter(accepted);
      // A filter with no value the records hold cannot tell a right answer from an empty one.
      if (known.length > 0)
        targets.push({ source, param: parameter.name, member, lookup: lookup as Lookup, known });
    }
  }
  return targets;
}

/** -1, 0, 1 between a member's text and a wanted value; undefined when they do not compare. */
function order(text: string, wanted: string): number | undefined {
  if (DATE.test(wanted)) {
    const day = text.slice(0, 10);
    return day < wanted ? -1 : day > wanted ? 1 : 0;
  }
  if (DATE_TIME.test(wanted)) return Math.sign(Date.parse(text) - Date.parse(wanted));
  const difference = Number(text) - Number(wanted);
  return Number.isNaN(difference) ? undefined : Math.sign(difference);
}

/** The member's scalar values: an array's elements, an object by its `id`. */
function scalarsOf(value: JsonValue | undefined): (string | number | boolean)[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(scalarsOf);
  if (isObject(value)) return 'id' in value ? scalarsOf(value.id) : [];
  return [value];
}

/** Equality as the filter reads it: numbers as numbers, a date-time member by day or instant. */
function same(value: string | number | boolean, wanted: string): boolean {
  if (typeof value === 'number') return wanted.trim() !== '' && Number(wanted) === value;
  if (typeof value === 'string' && DATE_TIME.test(value) && (DATE.test(wanted) || DATE_TIME.test(wanted)))
    return order(value, wanted) === 0;
  return String(value) === wanted;
}

/** Whether the record matches `lookup` with `value`: the client-side reading of the filter. */
function matches(record: JsonObject, { member, lookup }: Target, value: string): boolean {
  const scalars = scalarsOf(fieldAt(record, member));
  const texts = scalars.map(String);
  const values = value.split(',');
  const bound = (test: (n: number) => boolean) => {
    const found = texts[0] === undefined ? undefined : order(texts[0], value);
    return found !== undefined && test(found);
  };
  switch (lookup) {
    case 'exact':
      return scalars.some((scalar) => same(scalar, value));
    case 'iexact':
      return texts.some((text) => text.toLowerCase() === value.toLowerCase());
    case 'gt':
      return bound((n) => n > 0);
    case 'gte':
      return bound((n) => n >= 0);
    case 'lt':
      return bound((n) => n < 0);
    case 'lte':
      return bound((n) => n <= 0);
    case 'not_in':
      return !scalars.some((scalar) => values.some((v) => same(scalar, v)));
    case 'icontains':
      return texts.some((text) => text.toLowerCase().includes(value.toLowerCase()));
    case 'allin':
      return values.every((v) => scalars.some((scalar) => same(scalar, v)));
  }
}

/** Upper case becomes lower and lower upper: `__icontains` must match the text whatever its case. */
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

const HAS_LETTER = /\p{L}/u;

/** A value for the target: a known one, some known ones for the list lookups, a known text's part. */
function valueFor(target: Target): fc.Arbitrary<string> {
  const known = fc.constantFrom(...target.known);
  if (target.lookup === 'not_in' || target.lookup === 'allin')
    return fc
      .subarray(target.known, { minLength: 1, maxLength: Math.min(3, target.known.length) })
      .map((values) => values.join(','));
  // `iexact`: the value as a record holds it, or in capitals (the same records either way).
  if (target.lookup === 'iexact') return known.chain((text) => fc.constantFrom(text, text.toUpperCase()));
  if (target.lookup === 'icontains')
    return known.chain((text) =>
      fc
        .tuple(fc.nat(Math.max(0, text.length - 1)), fc.integer({ min: 1, max: 4 }))
        .map(([at, length]) => text.slice(at, at + length))
        .filter((part) => part.trim() !== '' && !part.includes(','))
        .chain((part) => fc.constantFrom(swapCase(part), part.toUpperCase(), part.toLowerCase())),
    );
  return known;
}

/** For `__icontains`: three characters of a text with letters, their case swapped (FILTER-LOOKUP). */
function otherCasePart(known: readonly string[]): string | undefined {
  const text = known.find((value) => HAS_LETTER.test(value));
  if (text === undefined) return undefined;
  const at = Math.max(0, text.search(HAS_LETTER) - 1);
  return swapCase(text.slice(at, at + 3));
}

/**
 * Tried first: one filter of each lookup, with a value a record holds (a record lying on a bound is what
 * tells `__gt` from `__gte`), so a short run covers every lookup; and every `__icontains` filter with a
 * part of a text in the other case (a case-sensitive match answers fewer records).
 */
function firstOfEachLookup(targets: Target[]): Input[] {
  const byLookup = new Map<Lookup, Target>();
  for (const target of targets) if (!byLookup.has(target.lookup)) byLookup.set(target.lookup, target);
  const first = [...byLookup.values()]
    .filter((target) => target.lookup !== 'icontains')
    .map((target) => ({ target, value: target.known[Math.floor(target.known.length / 2)]! }));
  const icontains = targets
    .filter((target) => target.lookup === 'icontains')
    .flatMap((target) => {
      const value = otherCasePart(target.known);
      return value === undefined ? [] : [{ target, value }];
    });
  return [...first, ...icontains];
}

export const filterLookup = defineRule<Input, Target[]>({
  id: 'FILTER-LOOKUP',
  area: 'cross-cutting',
  over: isListOperation,
  async prepare(suite, note) {
    const targets = await lookupTargets(suite, note);
    return targets.length === 0 ? skip('no list with a lookup filter whose member holds values') : targets;
  },
  examples: (_, targets) => firstOfEachLookup(targets),
  arbitrary: (_, targets) =>
    fc.constantFrom(...targets).chain((target) => valueFor(target).map((value) => ({ target, value }))),
  async check({ target, value }, run) {
    const { source, param } = target;
    const whole = await readAll(run.http, source);
    const expected = idsOf(whole.filter((record) => matches(record, target, value)));
    const got = idsOf(await readAll(run.http, source, { [param]: value }));
    if (got.join() !== expected.join()) {
      fail(
        `GET ${source.path}?${param}=${value} answered [${got.join(', ')}]; filtering the full list gives [${expected.join(', ')}]`,
      );
    }
  },
});
