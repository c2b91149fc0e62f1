/**
 * FILTER-IN: `<field>__in=a,b,c` answers exactly the records of the full list whose field is one of the
 * values, in the list's order: the same as filtering the full list client-side.
 */
import fc from 'fast-check';
import { defineRule, fail, skip, unmet } from '../rule.js';
import { isListOperation } from '../schema/drawn-list-queries.js';
import { type FilterTarget, fieldAt, fieldTexts, filterTargets, weightedTarget } from './filter-targets.js';
import { idsOf, readAll } from './read-list.js';

interface Input {
  target: FilterTarget;
  values: string[];
}

const unknownValue = fc.oneof(fc.uuid({ version: 4 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/));

export const filterIn = defineRule<Input, FilterTarget[]>({
  id: 'FILTER-IN',
  area: 'cross-cutting',
  over: isListOperation,
  async prepare(suite, note) {
    const targets = await filterTargets(suite, note, '__in');
    return targets.length === 0 ? skip('no list with a `__in` filter left by the config') : targets;
  },
  arbitrary: (_, targets) =>
    weightedTarget(targets).chain((target) =>
      fc
        .tuple(fc.subarray(target.known), fc.array(unknownValue, { maxLength: 2 }))
        .map(([known, unknown]) => [...known, ...unknown])
        .filter((values) => values.length > 0)
        .map((values) => ({ target, values })),
    ),
  async check({ target, values }, run) {
    const { source, param, field } = target;
    const whole = await readAll(run.http, source);
    // A filter over an empty list keeps nothing whatever the server does with it: no evidence.
    if (whole.length === 0) unmet(`${source.path} holds no record to filter`);
    const wanted = new Set(values);
    const expected = idsOf(
      whole.filter((record) => fieldTexts(fieldAt(record, field)).some((text) => wanted.has(text))),
    );
    const got = idsOf(await readAll(run.http, source, { [param]: values.join(',') }));
    if (got.join() !== expected.join()) {
      fail(
        `GET ${source.path}?${param}=${values.join(',')} answered [${got.join(', ')}]; filtering the full list gives [${expected.join(', ')}]`,
      );
    }
  },
});
