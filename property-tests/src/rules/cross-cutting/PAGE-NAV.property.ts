/**
 * PAGE-NAV: walking a list from page 1 by following `next` as it is (an absolute URL) gives disjoint
 * pages, full but for the last, in the list's order (the one read with page_size 1000), holding exactly
 * `count` records; `previous` of a page leads back to the page before it. Long lists are walked in at
 * most MAX_PAGES pages (the page size grows), so a run stays a few dozen requests.
 */
import fc from 'fast-check';
import { defineRule, fail, type RunContext, skip, unmet } from '../rule.js';
import { isListOperation } from '../schema/drawn-list-queries.js';
import { type ListSource, listSources } from './list-sources.js';
import { idsOf, type Page, pageOf, readAll } from './read-list.js';

const MAX_PAGES = 25;

interface Input {
  source: ListSource;
  pageSize: number;
}

async function walk(run: RunContext, source: ListSource, pageSize: number): Promise<Page[]> {
  const first = { ...source.base, page_size: String(pageSize) };
  const { headers } = source;
  const pages = [
    pageOf(
      await run.http.request({ method: 'GET', url: source.path, query: first, headers }),
      `GET ${source.path}`,
    ),
  ];
  const limit = Math.ceil(Math.max(pages[0]!.count, 0) / pageSize) + 1;
  while (pages.at(-1)!.next !== null) {
    if (pages.length > limit)
      fail(`more than ${limit} pages for count ${pages[0]!.count} at page_size ${pageSize}`);
    const next = pages.at(-1)!.next!;
    pages.push(
      pageOf(await run.http.request({ method: 'GET', url: next, headers }), `following next ${next}`),
    );
  }
  return pages;
}

async function checkPrevious(run: RunContext, source: ListSource, pages: Page[]): Promise<void> {
  const index = pages.length - 1;
  const previous = pages[index]!.previous;
  if (index === 0 || previous === null) return;
  const answer = await run.http.request({ method: 'GET', url: previous, headers: source.headers });
  const back = pageOf(answer, `following previous ${previous}`);
  if (idsOf(back.results).join() !== idsOf(pages[index - 1]!.results).join()) {
    fail(`\`previous\` of page ${index + 1} (${previous}) does not give page ${index} again`);
  }
}

export const pageNav = defineRule<Input, ListSource[]>({
  id: 'PAGE-NAV',
  area: 'cross-cutting',
  over: isListOperation,
  async prepare(suite, note) {
    const sources = await listSources(suite, note);
    return sources.length === 0 ? skip('no collection list left by the config') : sources;
  },
  arbitrary: (_, sources) =>
    fc.record({ source: fc.constantFrom(...sources), pageSize: fc.integer({ min: 1, max: 7 }) }),
  async check(input, run) {
    const { source } = input;
    const query = { ...source.base, page_size: '1' };
    const probe = await run.http.request({ method: 'GET', url: source.path, query, headers: source.headers });
    const pageSize = Math.max(
      input.pageSize,
      Math.ceil(pageOf(probe, `GET ${source.path}`).count / MAX_PAGES),
    );
    const pages = await walk(run, source, pageSize);
    const count = pages[0]!.count;
    const ids = pages.flatMap((page) => idsOf(page.results));
    if (new Set(ids).size !== ids.length) fail(`pages of size ${pageSize} overlap: ${ids.join(', ')}`);
    if (ids.length !== count)
      fail(`the pages of size ${pageSize} hold ${ids.length} records; count says ${count}`);
    const short = pages.slice(0, -1).findIndex((page) => page.results.length !== pageSize);
    if (short >= 0)
      fail(`page ${short + 1} holds ${pages[short]!.results.length} records, not page_size ${pageSize}`);
    const whole = idsOf(await readAll(run.http, source));
    if (whole.join() !== ids.join())
      fail(`the pages are not in the list's order:\n  pages ${ids.join(', ')}\n  list  ${whole.join(', ')}`);
    await checkPrevious(run, source, pages);
    // An empty list (nothing above broken) has nothing to walk: the run shows nothing of the pages.
    if (count === 0) unmet(`${source.path} holds no record: nothing to walk`);
  },
});
