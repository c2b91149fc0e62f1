/**
 * Reads a whole list the way a client does, following `next` as it is, and checks the pagination laws on
 * the way (PAGE-NAV): the first page has no `previous`, pages are disjoint, full but for the last, agree
 * on `count` and together hold exactly `count` records. The commands then compare the ids with the model.
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import { pageOf } from '../cross-cutting/read-list.js';
import { fail } from '../rule.js';
import type { ModelTarget } from './model-target.js';

/** Pages a walk may take: the page size grows with the model's count to stay under it. */
export const MAX_PAGES = 4;

/** A page size of at least `wanted` that reads `expectedCount` records in MAX_PAGES pages. */
export const pageSizeFor = (wanted: number, expectedCount: number) =>
  Math.max(wanted, Math.ceil(expectedCount / MAX_PAGES));

export async function walkList(
  target: ModelTarget,
  path: string,
  query: Record<string, string>,
  pageSize: number,
  what: string,
): Promise<JsonObject[]> {
  const firstQuery = { ...query, page_size: String(pageSize) };
  const first = pageOf(await target.http.request({ method: 'GET', url: path, query: firstQuery }), what);
  if (!Number.isInteger(first.count)) fail(`${what}: PAGE-DEFAULT: the page has no integer \`count\``);
  if (first.previous !== null) fail(`${what}: PAGE-NAV: page 1 has \`previous\` ${first.previous}`);
  const pages = [first];
  const limit = Math.ceil(first.count / pageSize) + 1;
  for (let next = first.next; next !== null; next = pages.at(-1)?.next ?? null) {
    if (pages.length >= limit)
      fail(`${what}: PAGE-NAV: more than ${limit} pages of ${pageSize} for count ${first.count}`);
    pages.push(pageOf(await target.http.request({ method: 'GET', url: next }), `${what}, following ${next}`));
  }
  pages.forEach((page, index) => {
    if (page.count !== first.count)
      fail(`${what}: page ${index + 1} says count ${page.count}, page 1 ${first.count}`);
    if (index < pages.length - 1 && page.results.length !== pageSize) {
      fail(
        `${what}: PAGE-NAV: page ${index + 1} holds ${page.results.length} records, not page_size ${pageSize}`,
      );
    }
  });
  const records = pages.flatMap((page) => page.results);
  const ids = records.map((record) => String(record.id));
  if (new Set(ids).size !== ids.length)
    fail(`${what}: PAGE-NAV: pages of ${pageSize} overlap: ${ids.join(', ')}`);
  if (ids.length !== first.count)
    fail(`${what}: PAGE-NAV: the pages hold ${ids.length} records, count says ${first.count}`);
  return records;
}

/** Fails unless the target listed exactly the model's ids (order aside). */
export function expectSameIds(expected: readonly string[], listed: readonly string[], what: string): void {
  const want = new Set(expected);
  const got = new Set(listed);
  const missing = [...want].filter((id) => !got.has(id));
  const extra = [...got].filter((id) => !want.has(id));
  if (missing.length === 0 && extra.length === 0 && listed.length === expected.length) return;
  const parts = [`the model has ${expected.length}, the target lists ${listed.length}`];
  if (missing.length > 0) parts.push(`missing ${missing.join(', ')}`);
  if (extra.length > 0) parts.push(`not in the model ${extra.join(', ')}`);
  fail(`${what}: ${parts.join('; ')}`);
}
