/**
 * PAGE-DEFAULT: a list answers the envelope `{count, next, previous, results}` (valid against the
 * operation's page schema); without `page_size` a page holds 100 records (the links list is filled past
 * 100 to see it); `next` and `previous` are absolute URLs, or null at either end, carrying every filter
 * and the `page_size` of the request.
 */
import fc from 'fast-check';
import { expectUsable } from '../expect-response.js';
import { defineRule, fail, skip } from '../rule.js';
import { isListOperation } from '../schema/drawn-list-queries.js';
import { type ListSource, listSources } from './list-sources.js';
import { checkPageLink } from './page-links.js';
import { type Page, pageOf } from './read-list.js';

const DEFAULT_PAGE_SIZE = 100;

interface Input {
  source: ListSource;
  pageSize: number | null;
  page: number;
}

/** Without page_size: pages of 100, `next` until the last one, `previous` after the first. */
function checkDefaultSize(current: Page, page: number, what: string): void {
  const size = DEFAULT_PAGE_SIZE;
  const expected = Math.max(0, Math.min(size, current.count - (page - 1) * size));
  if (current.results.length !== expected) {
    fail(
      `${what}: count ${current.count}, so page ${page} of the default size ${size} holds ${expected} records, not ${current.results.length}`,
    );
  }
  if ((current.next === null) !== page * size >= current.count) {
    fail(
      `${what}: \`next\` is ${current.next ?? 'null'} on page ${page} of ${Math.ceil(current.count / size)}`,
    );
  }
  if ((current.previous === null) !== (page === 1))
    fail(`${what}: \`previous\` is ${current.previous ?? 'null'} on page ${page}`);
}

export const pageDefault = defineRule<Input, ListSource[]>({
  id: 'PAGE-DEFAULT',
  area: 'cross-cutting',
  over: isListOperation,
  async prepare(suite, note) {
    const sources = await listSources(suite, note, { linksAtLeast: DEFAULT_PAGE_SIZE + 1 });
    return sources.length === 0 ? skip('no collection list left by the config') : sources;
  },
  arbitrary: (_, sources) =>
    fc.record({
      source: fc.constantFrom(...sources),
      pageSize: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 150 })),
      page: fc.integer({ min: 1, max: 3 }),
    }),
  async check({ source, pageSize, page }, run) {
    const query: Record<string, string> = { ...source.base, page: String(page) };
    if (pageSize !== null) query.page_size = String(pageSize);
    const response = await run.http.request({
      method: 'GET',
      url: source.path,
      query,
      headers: source.headers,
    });
    const what = `GET ${source.path} ${new URLSearchParams(query)}`;
    const current = pageOf(response, what);
    // The links first: a relative `next` also breaks the page schema (`format: uri`), which would end
    // the run as unmet below; it is this rule's own violation.
    checkPageLink('next', current.next, query, what);
    checkPageLink('previous', current.previous, query, what);
    const schema = run.document.operation(source.operationId)?.responses.get('200')?.schema;
    if (schema !== undefined) expectUsable(run.document, response, schema, what);
    // With page_size given, how many records a page holds is PAGE-MAX's and PAGE-NAV's to check.
    if (pageSize === null) checkDefaultSize(current, page, what);
  },
});
