/**
 * EXCHANGE-HISTORY: POST `/api/br/exchanges/` without dates retrieves the last `x-default-range-days`
 * (365) days: every operation date lies in them, and the same exchanges come back when those days are
 * asked for explicitly. GET `P/{id}/history/` of a retrieved exchange walks as a paginated list (pages
 * valid against the document, disjoint, `count` events, all of that exchange), and after deleting the
 * exchange (204) its history answers 404.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { pageOf } from '../cross-cutting/read-list.js';
import { expectErrorArray, expectStatus, expectUsable } from '../expect-response.js';
import { defineRule, fail, type RunContext, skip, unmet } from '../rule.js';
import { documentNumber } from './data-resources.js';
import { type Reachable, reachableResources } from './reachable.js';
import { type DeleteStats, deleteRecord, idOf, itemUrl, rateLimitNote } from './records.js';
import { dayOf, dayText, retrievalBody, retrieveRecords } from './retrieval.js';

/** The exchange's date the retrieval's range selects (interface spec: "POST retrieves the last 365 days"). */
const DATE_MEMBER = 'operation_date';
const MAX_PAGES = 50;

interface Input {
  pick: number;
  pageSize: number;
  remove: boolean;
}

interface Fixture {
  entry: Reachable;
  history: ApiOperation;
  days: number;
  stats: DeleteStats;
}

async function checkDefaultRange(run: RunContext, { entry, days }: Fixture): Promise<JsonObject[]> {
  const { resource, link } = entry;
  const records = await retrieveRecords(run, resource, retrievalBody(resource, link, entry.today));
  const first = records[0];
  const today = typeof first?.collected_at === 'string' ? dayOf(first.collected_at) : entry.today;
  const outside = records.filter((r) => {
    const day = dayOf(String(r[DATE_MEMBER]));
    return !(day >= today - days && day <= today);
  });
  if (outside.length > 0)
    fail(
      `POST ${resource.path} without dates returned ${DATE_MEMBER}s outside the last ${days} days (${dayText(today - days)} to ${dayText(today)}): ${outside.map((r) => r[DATE_MEMBER]).join(', ')}`,
    );
  if (!resource.range) return records;
  const body = retrievalBody(resource, link, today, { range: { back: 0, span: days } });
  const explicit = await retrieveRecords(run, resource, body);
  const [a, b] = [records, explicit].map((list) => list.map(idOf).sort().join());
  if (a !== b)
    fail(`POST ${resource.path} without dates and ${JSON.stringify(body)} return different exchanges`);
  return records;
}

async function walkHistory(
  run: RunContext,
  fixture: Fixture,
  exchange: string,
  pageSize: number,
): Promise<void> {
  const url = `${itemUrl(fixture.entry.resource.path, exchange)}history/`;
  const schema = fixture.history.responses.get('200')?.schema;
  let answer = await run.http.request({ method: 'GET', url, query: { page_size: String(pageSize) } });
  const events: JsonObject[] = [];
  let count = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const current = pageOf(answer, `GET ${url} page ${page}`);
    if (schema !== undefined) expectUsable(run.document, answer, schema, `GET ${url} page ${page}`);
    count = current.count;
    events.push(...current.results);
    if (current.next === null) break;
    answer = await run.http.request({ method: 'GET', url: current.next });
  }
  const ids = events.map(idOf);
  if (new Set(ids).size !== ids.length)
    fail(`GET ${url} pages of size ${pageSize} overlap: ${ids.join(', ')}`);
  if (ids.length !== count)
    fail(`GET ${url} pages of size ${pageSize} hold ${ids.length} events; count says ${count}`);
  const foreign = events.filter((event) => 'exchange' in event && event.exchange !== exchange).map(idOf);
  if (foreign.length > 0) fail(`GET ${url} lists events of other exchanges: ${foreign.join(', ')}`);
}

export const exchangeHistory = defineRule<Input, Fixture>({
  id: 'EXCHANGE-HISTORY',
  area: 'data',
  operations: ['retrieveExchanges', 'listExchangeHistory'],
  runs: 10,
  async prepare(suite, note) {
    const history = suite.operations.find((op) => op.method === 'GET' && op.path.endsWith('{id}/history/'));
    if (!history) return skip('no history list (GET P/{id}/history/) left by the config');
    const collection = history.path.replace(/\{.*$/, '');
    const [entry] = await reachableResources(suite, note, {
      keep: (r) => r.path === collection,
      fresh: true,
    });
    if (!entry) return skip(`the retrieval POST ${collection} is not reachable`);
    const days = documentNumber(suite, entry.resource.retrieve, 'x-default-range-days') ?? 365;
    return { entry, history, days, stats: { rateLimited: 0 } };
  },
  arbitrary: () =>
    fc.record({ pick: fc.nat(), pageSize: fc.integer({ min: 1, max: 4 }), remove: fc.boolean() }),
  examples: () => [{ pick: 0, pageSize: 1, remove: true }],
  async check({ pick, pageSize, remove }, run, fixture) {
    const records = await checkDefaultRange(run, fixture);
    const exchange = records[pick % Math.max(records.length, 1)];
    // No exchange: the range holds nothing to check, and there is no history to walk.
    if (!exchange) unmet(`POST ${fixture.entry.resource.path} retrieved no exchange: no history to walk`);
    await walkHistory(run, fixture, idOf(exchange), pageSize);
    const { resource } = fixture.entry;
    if (!remove || !resource.remove) return;
    const url = itemUrl(resource.path, idOf(exchange));
    expectStatus(await deleteRecord(run, resource.remove, url, fixture.stats), [204], `DELETE ${url}`);
    const history = await run.http.request({ method: 'GET', url: `${url}history/` });
    expectStatus(history, [404], `GET ${url}history/ after the exchange's DELETE (204)`);
    expectErrorArray(run.document, history, `GET ${url}history/`);
  },
  summarize: ({ stats }) => rateLimitNote(stats),
});
