/**
 * PAGE-MAX: a page never holds more than 1000 records and never more than `page_size` (a `page_size`
 * above 1000 is served as 1000); a `page_size` below 1, or a `page` or `page_size` that is not an
 * integer, gets 400 with an error whose `field` names the parameter; a `page` below 1 (the provider
 * states no minimum for it) holds no records, like a page past the last.
 */
import fc from 'fast-check';
import { expectFieldError, expectStatus } from '../expect-response.js';
import { defineRule, fail, skip } from '../rule.js';
import { isListOperation } from '../schema/drawn-list-queries.js';
import { bigList } from './big-list.js';
import { type ListSource, listSources } from './list-sources.js';
import { pageOf } from './read-list.js';

const MAX_PAGE_SIZE = 1000;
/** Values that are no valid `page_size`; the ones that are integers are valid pages (below 1: empty). */
const INVALID = ['0', '-1', '-250', '1.5', 'abc', '10e', ''];

interface Input {
  source: ListSource;
  pageSize: string;
  page: string;
}

const validSize = (text: string) => /^[1-9]\d*$/.test(text);
const validPage = (text: string) => /^-?\d+$/.test(text);

interface Fixture {
  sources: ListSource[];
  /** A list of more than 1000 records, where page_size above 1000 must give exactly 1000. */
  big: ListSource | undefined;
}

export const pageMax = defineRule<Input, Fixture>({
  id: 'PAGE-MAX',
  area: 'cross-cutting',
  over: isListOperation,
  runs: 30,
  async prepare(suite, note) {
    const sources = await listSources(suite, note);
    if (sources.length === 0) return skip('no collection list left by the config');
    return { sources, big: await bigList(suite, sources, note) };
  },
  arbitrary: (_, { sources }) =>
    fc.record({
      source: fc.constantFrom(...sources),
      pageSize: fc.oneof(
        fc.integer({ min: 1, max: 20 }).map(String),
        fc.integer({ min: 1001, max: 5000 }).map(String),
        fc.constantFrom(...INVALID),
      ),
      page: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }).map(String) },
        fc.constantFrom(...INVALID),
      ),
    }),
  // Every invalid value once, for either parameter (a lenient integer parser accepts some of them), and
  // the big list's first two pages with page_size above 1000: 1000 records each, never more (only these
  // two: pages of 1000 records are heavy to send and to validate).
  examples: (_, { sources: [source], big }) => [
    ...INVALID.flatMap((value) => [
      { source: source!, pageSize: value, page: '1' },
      { source: source!, pageSize: '10', page: value },
    ]),
    ...(big
      ? [
          { source: big, pageSize: '1500', page: '1' },
          { source: big, pageSize: '1001', page: '2' },
        ]
      : []),
  ],
  async check({ source, pageSize, page }, run) {
    const query = { ...source.base, page, page_size: pageSize };
    const response = await run.http.request({
      method: 'GET',
      url: source.path,
      query,
      headers: source.headers,
    });
    const what = `GET ${source.path} page=${page} page_size=${pageSize}`;
    const invalid = [
      validSize(pageSize) ? undefined : 'page_size',
      validPage(page) ? undefined : 'page',
    ].filter(Boolean);
    if (invalid.length > 0) {
      expectStatus(response, [400], what);
      expectFieldError(response, invalid as string[], undefined, what);
      return;
    }
    const current = pageOf(response, what);
    const size = Math.min(Number(pageSize), MAX_PAGE_SIZE);
    const expected =
      Number(page) < 1 ? 0 : Math.max(0, Math.min(size, current.count - (Number(page) - 1) * size));
    if (current.results.length !== expected) {
      fail(
        `${what}: count ${current.count} and a page size of ${size} (page_size ${pageSize}, at most ${MAX_PAGE_SIZE}) make ${expected} records on page ${page}, not ${current.results.length}`,
      );
    }
  },
});
