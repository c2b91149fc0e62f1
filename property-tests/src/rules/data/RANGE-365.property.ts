/**
 * RANGE-365: every retrieval whose document states `x-max-range-days` (invoices MX and CL, incomes,
 * recurring expenses: 365) answers a range whose `date_to` lies more than that many days after
 * `date_from` with 400 and the error array, and accepts (201, a valid list) one that lies at most that
 * many days after it. The document words the limit as "`date_to` at most 365 days after `date_from`", so
 * a range's length here is `date_to - date_from` in days; 365 and 366 are always tried. Where the
 * retrieval orders its range (`x-ordered-range`), a range whose `date_to` lies before `date_from` gets
 * 400 and the error array too (tried once for each). Accepted retrievals send `save_data: false` where
 * the body has it (nothing is kept).
 */
import fc from 'fast-check';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule } from '../rule.js';
import { type DataResource, documentNumber, isDataRetrieval } from './data-resources.js';
import { byPath, enumChoice, type Reachable, reachableResources, unreached } from './reachable.js';
import {
  expectRetrieved,
  expectReversedRefused,
  postRetrieval,
  retrievalBody,
  reversedRangeBody,
} from './retrieval.js';

interface Input {
  path: string;
  /** `date_to - date_from`, in days. */
  days: number;
  /** Days between `date_to` and the target's today. */
  back: number;
  enums: Record<string, string>;
  /** The range ends before it starts (`x-ordered-range`): 400 whatever its length. */
  reversed: boolean;
}

interface Limited extends Reachable {
  max: number;
}

export const range365 = defineRule<Input, Limited[]>({
  id: 'RANGE-365',
  area: 'data',
  over: (operation) => isDataRetrieval(operation) && typeof operation.raw['x-max-range-days'] === 'number',
  runs: 30,
  async prepare(suite, note) {
    const maxOf = (resource: DataResource) => documentNumber(suite, resource.retrieve, 'x-max-range-days');
    const keep = (resource: DataResource) => maxOf(resource) !== null && resource.range?.unit === 'day';
    const limited = (await reachableResources(suite, note, { keep })).map((entry) => ({
      ...entry,
      max: maxOf(entry.resource)!,
    }));
    return limited.length === 0
      ? unreached(limited, 'no reachable retrieval states `x-max-range-days`')
      : limited;
  },
  arbitrary: (_, limited) =>
    fc.constantFrom(...limited).chain(({ resource, max }) =>
      fc.record({
        path: fc.constant(resource.path),
        days: fc.oneof(fc.integer({ min: 0, max }), fc.integer({ min: max + 1, max: max * 4 })),
        back: fc.integer({ min: 0, max: 400 }),
        enums: enumChoice(resource),
        reversed: resource.ordered
          ? fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true))
          : fc.constant(false),
      }),
    ),
  // The boundary of each resource: the longest accepted range and the shortest refused one; a reversed
  // range where the retrieval orders it.
  examples: (_, limited) =>
    limited.flatMap(({ resource, max }) => [
      ...[max, max + 1].map((days) => ({ path: resource.path, days, back: 0, enums: {}, reversed: false })),
      ...(resource.ordered ? [{ path: resource.path, days: 1, back: 0, enums: {}, reversed: true }] : []),
    ]),
  async check({ path, days, back, enums, reversed }, run, limited) {
    const { resource, link, today, max } = byPath(limited, path);
    if (reversed) {
      const refused = reversedRangeBody(resource, link, today);
      return expectReversedRefused(run, resource, await postRetrieval(run.http, resource, refused), refused);
    }
    const body = retrievalBody(resource, link, today, { range: { back, span: days }, enums, discard: true });
    const answer = await postRetrieval(run.http, resource, body);
    if (days > max) {
      const what = `POST ${path} with a range of ${days} days (at most ${max}): ${JSON.stringify(body)}`;
      expectStatus(answer, [400], what);
      expectErrorArray(run.document, answer, what);
      return;
    }
    expectRetrieved(run, resource, answer, body);
  },
});
