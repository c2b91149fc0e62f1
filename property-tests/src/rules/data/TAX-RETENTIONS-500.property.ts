/**
 * TAX-RETENTIONS-500: every retrieval whose document states `x-max-records-per-period` (tax retentions:
 * 500) returns at most that many records for the requested period, whatever its length (up to two
 * years) and direction; the answer is a valid list (201). The period is the requested range (the
 * document's choice). Year-long and two-year periods are always tried: they are where a busy taxpayer
 * has more than 500. `save_data: false` where the body has it (nothing is kept).
 */
import fc from 'fast-check';
import { defineRule, fail } from '../rule.js';
import { type DataResource, documentNumber } from './data-resources.js';
import { byPath, enumChoice, type Reachable, reachableResources, unreached } from './reachable.js';
import { expectRetrieved, postRetrieval, retrievalBody } from './retrieval.js';

interface Input {
  path: string;
  /** The period's length (`date_to - date_from`) in days, or in years for a yearly range. */
  span: number;
  back: number;
  enums: Record<string, string>;
}

interface Capped extends Reachable {
  max: number;
  /** The most records one answer held (for the report). */
  most: number;
}

const maxOf = (suite: Parameters<typeof documentNumber>[0], resource: DataResource) =>
  documentNumber(suite, resource.retrieve, 'x-max-records-per-period');

export const taxRetentions500 = defineRule<Input, Capped[]>({
  id: 'TAX-RETENTIONS-500',
  area: 'data',
  operations: ['retrieveTaxRetentions'],
  runs: 10,
  async prepare(suite, note) {
    const keep = (resource: DataResource) => maxOf(suite, resource) !== null && resource.range !== null;
    const capped = (await reachableResources(suite, note, { keep })).map((entry) => ({
      ...entry,
      max: maxOf(suite, entry.resource)!,
      most: 0,
    }));
    return capped.length === 0
      ? unreached(capped, 'no reachable retrieval states `x-max-records-per-period`')
      : capped;
  },
  arbitrary: (_, capped) =>
    fc.constantFrom(...capped).chain(({ resource }) => {
      const yearly = resource.range?.unit === 'year';
      return fc.record({
        path: fc.constant(resource.path),
        span: fc.integer({ min: 0, max: yearly ? 2 : 730 }),
        back: fc.integer({ min: 0, max: yearly ? 1 : 365 }),
        enums: enumChoice(resource),
      });
    }),
  examples: (_, capped) =>
    capped.flatMap(({ resource }) =>
      (resource.range?.unit === 'year' ? [1, 2] : [365, 730]).map((span) => ({
        path: resource.path,
        span,
        back: 0,
        enums: {},
      })),
    ),
  async check({ path, span, back, enums }, run, capped) {
    const entry = byPath(capped, path);
    const { resource, link, today, max } = entry;
    const body = retrievalBody(resource, link, today, { range: { back, span }, enums, discard: true });
    const answer = await postRetrieval(run.http, resource, body);
    // The count first: the document's list states `maxItems` too, and this rule owns that limit (a
    // shape row would otherwise be the only one to see it).
    const count = Array.isArray(answer.json) ? answer.json.length : 0;
    entry.most = Math.max(entry.most, count);
    if (count > max) {
      fail(`POST ${path} ${JSON.stringify(body)} returned ${count} records for one period; at most ${max}`);
    }
    expectRetrieved(run, resource, answer, body);
  },
  summarize: (capped) =>
    capped.map(
      ({ resource, most, max }) => `${resource.path}: at most ${most} of ${max} records in one answer`,
    ),
});
