/**
 * AUTH-TENANT: the data of one API key is never visible to another. Records the primary key owns (a
 * link, and one record of every collection list the suite could fill) are asked for with the config's
 * second key: detail, update and delete get 404 (and the record stays its owner's), and the second
 * key's lists, filtered by the owner's link or not, never hold it.
 */
import fc from 'fast-check';
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { defineRule, fail, isSkip, type RunContext, type SuiteContext, skip, unmet } from '../rule.js';
import { type ListSource, listSources } from './list-sources.js';

type Action = 'detail' | 'update' | 'delete' | 'list';

interface Owned {
  /** The primary key's record: its list, its id and the operations on it. */
  source: ListSource;
  id: string;
  detail?: ApiOperation;
  update?: ApiOperation;
  remove?: ApiOperation;
}

interface Input {
  owned: number;
  action: Action;
}

const ACTIONS: readonly Action[] = ['detail', 'update', 'delete', 'list'];
const MAX_PAGES = 20;
/** Not tenant data: every key sees the same institutions. */
const SHARED = ['/api/institutions/', '/payments/br/institutions/'];

/** The operation of `method` on one record of `list` (`/api/links/{id}/`). */
function itemOperation(suite: SuiteContext, list: string, method: string): ApiOperation | undefined {
  return suite.operations.find(
    (op) =>
      op.method === method && op.path.startsWith(list) && /^\{[^}]+\}\/$/.test(op.path.slice(list.length)),
  );
}

const itemUrl = (owned: Owned, operation: ApiOperation) =>
  operation.path.replace(/\{[^}]+\}/, encodeURIComponent(owned.id));

async function ownedRecords(suite: SuiteContext, note: (text: string) => void): Promise<Owned[]> {
  const sources = (await listSources(suite, note, { linksAtLeast: 1 })).filter(
    (source) => !SHARED.includes(source.path),
  );
  // Reads change nothing: every list is read side by side.
  const lists = await Promise.all(
    sources.map((source) => suite.fixtures.listAll(source.path, source.base, source.headers)),
  );
  return sources.flatMap((source, index) => {
    const records = lists[index];
    const first = isSkip(records) ? undefined : records?.find((record) => typeof record.id === 'string');
    if (!first) return [];
    return [
      {
        source,
        id: String(first.id),
        ...optional('detail', itemOperation(suite, source.path, 'GET')),
        ...optional('update', itemOperation(suite, source.path, 'PATCH')),
        ...optional('remove', itemOperation(suite, source.path, 'DELETE')),
      },
    ];
  });
}

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** The second key's answer on the owner's record must be 404; the owner still reads it. */
async function expectHidden(run: RunContext, owned: Owned, operation: ApiOperation, json?: JsonValue) {
  const url = itemUrl(owned, operation);
  const what = `${operation.method} ${url} with the second key (the primary key's record)`;
  const answer = await run.http.request({
    method: operation.method,
    url,
    auth: 'second',
    headers: owned.source.headers,
    ...(json === undefined ? {} : { json }),
  });
  expectStatus(answer, [404], what);
  if (owned.detail) {
    const detail = itemUrl(owned, owned.detail);
    const own = await run.http.request({ method: 'GET', url: detail, headers: owned.source.headers });
    expectStatus(own, [200], `GET ${detail} with the primary key after the second key's ${operation.method}`);
  }
}

/** The second key's list, walked whole (with the owner's `link` filter where the list takes one). */
async function expectUnlisted(run: RunContext, owned: Owned) {
  const { path, base, headers } = owned.source;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const query = { ...base, page: String(page), page_size: '1000' };
    const answer = await run.http.request({ method: 'GET', url: path, query, auth: 'second', headers });
    const what = `GET ${path}?${new URLSearchParams(query)} with the second key`;
    const body = answer.json;
    // Another key's link names nothing for this key: 400 or 404 is fine, records are not.
    if (answer.status === 400 || answer.status === 404) return;
    if (answer.status !== 200 || !isObject(body) || !Array.isArray(body.results)) {
      unmet(`${what} answered no page: ${describeAnswer(answer)}`);
    }
    const rows = body.results.filter(isObject);
    if (rows.some((row) => row.id === owned.id)) {
      fail(`${what} lists ${owned.id}, a record of the primary key`);
    }
    if (body.next === null || rows.length === 0) return;
  }
}

export const authTenant = defineRule<Input, Owned[]>({
  id: 'AUTH-TENANT',
  title:
    "AUTH-TENANT: The data of one API key is never visible to another: another key's link or record gets 404 on detail, update and delete, and never appears in a list.",
  area: 'cross-cutting',
  needs: ['second-key'],
  runs: 20,
  async prepare(suite, note) {
    const owned = await ownedRecords(suite, note);
    return owned.length === 0 ? skip('the primary key owns no record the suite could list') : owned;
  },
  arbitrary: (_, owned) =>
    fc.record({ owned: fc.nat({ max: owned.length - 1 }), action: fc.constantFrom(...ACTIONS) }),
  // Every record's detail and list, first.
  examples: (_, owned) =>
    owned.flatMap((_record, index) => [
      { owned: index, action: 'detail' as const },
      { owned: index, action: 'list' as const },
    ]),
  async check({ owned: index, action }, run, owned) {
    const record = owned[index]!;
    if (action === 'list') return expectUnlisted(run, record);
    const operation = { detail: record.detail, update: record.update, delete: record.remove }[action];
    if (!operation) unmet(`${record.source.path} has no ${action} operation`);
    // An update carries the document's example body: a 404 must come for the record, not the body.
    const body = action === 'update' ? (operation.body?.example ?? {}) : undefined;
    await expectHidden(run, record, operation, body);
  },
});
