/**
 * FILTER-RANGE: `<field>__range=<from>,<to>` answers exactly the records of the full list whose field
 * lies inside the inclusive range (dates `YYYY-MM-DD`, compared on the date part), in the list's order.
 */
import fc from 'fast-check';
import { dateArbitrary } from '../../arbitraries/format-arbitraries.js';
import { defineRule, fail, skip, unmet } from '../rule.js';
import { isListOperation } from '../schema/drawn-list-queries.js';
import { type FilterTarget, fieldAt, fieldTexts, filterTargets, weightedTarget } from './filter-targets.js';
import { idsOf, readAll } from './read-list.js';

interface Input {
  target: FilterTarget;
  from: string;
  to: string;
}

const DAY = 86_400_000;

/**
 * Known dates as they are (an inclusive bound is only tested by a record lying on it), moved by up to
 * two days either way, or any date.
 */
function dateBound(known: string[]): fc.Arbitrary<string> {
  if (known.length === 0) return dateArbitrary();
  const shifted = fc
    .tuple(fc.constantFrom(...known), fc.integer({ min: -2, max: 2 }))
    .map(([day, shift]) => new Date(Date.parse(`${day}T00:00:00Z`) + shift * DAY).toISOString().slice(0, 10));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: shifted },
    { weight: 1, arbitrary: dateArbitrary() },
  );
}

function numberBound(known: string[]): fc.Arbitrary<string> {
  const any = fc.integer({ min: -100_000, max: 100_000 }).map(String);
  if (known.length === 0) return any;
  const near = fc
    .tuple(fc.constantFrom(...known), fc.constantFrom(-1, 0, 0, 1))
    .map(([value, shift]) => (Number(value) + shift).toFixed(2));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: near },
    { weight: 1, arbitrary: any },
  );
}

function inRange(target: FilterTarget, text: string, from: string, to: string): boolean {
  if (target.kind === 'date-range') {
    const day = text.slice(0, 10);
    return day >= from && day <= to;
  }
  const value = Number(text);
  return value >= Number(from) && value <= Number(to);
}

export const filterRange = defineRule<Input, FilterTarget[]>({
  id: 'FILTER-RANGE',
  area: 'cross-cutting',
  over: isListOperation,
  async prepare(suite, note) {
    const targets = await filterTargets(suite, note, '__range');
    return targets.length === 0 ? skip('no list with a `__range` filter left by the config') : targets;
  },
  arbitrary: (_, targets) =>
    weightedTarget(targets).chain((target) => {
      const bound = target.kind === 'date-range' ? dateBound(target.known) : numberBound(target.known);
      // Ordered bounds: a range that keeps records tests both ends; an empty one tests neither.
      const before = (a: string, b: string) =>
        target.kind === 'date-range' ? a <= b : Number(a) <= Number(b);
      return fc
        .tuple(bound, bound)
        .map(([a, b]) => (before(a, b) ? { target, from: a, to: b } : { target, from: b, to: a }));
    }),
  async check({ target, from, to }, run) {
    const { source, param, field } = target;
    const whole = await readAll(run.http, source);
    // A filter over an empty list keeps nothing whatever the server does with it: no evidence.
    if (whole.length === 0) unmet(`${source.path} holds no record to filter`);
    const keep = whole.filter((record) =>
      fieldTexts(fieldAt(record, field)).some((text) => inRange(target, text, from, to)),
    );
    const got = idsOf(await readAll(run.http, source, { [param]: `${from},${to}` }));
    if (got.join() !== idsOf(keep).join()) {
      fail(
        `GET ${source.path}?${param}=${from},${to} answered [${got.join(', ')}]; filtering the full list gives [${idsOf(keep).join(', ')}]`,
      );
    }
  },
});
