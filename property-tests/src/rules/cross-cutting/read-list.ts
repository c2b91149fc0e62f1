/** Reading lists inside a run (recorded): one page, or every page with the largest page size. */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { HttpResponse, HttpSession } from '../../http/http-client.js';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';
import { canonicalJson } from '../same-value.js';
import type { ListSource } from './list-sources.js';

export interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: JsonObject[];
}

const MAX_PAGES = 50;

/** The page envelope of an answer, or a Violation naming what is wrong with it. */
export function pageOf(response: HttpResponse, what: string): Page {
  const body: JsonValue | undefined = response.json;
  if (response.status !== 200 || !isObject(body) || !Array.isArray(body.results)) {
    fail(`${what}: wanted 200 with a page {count, next, previous, results}, got ${describeAnswer(response)}`);
  }
  const url = (value: JsonValue | undefined) => (typeof value === 'string' ? value : null);
  return {
    count: typeof body.count === 'number' ? body.count : Number.NaN,
    next: url(body.next),
    previous: url(body.previous),
    results: body.results.filter(isObject),
  };
}

/** Every record of a list, read with `page` and page_size 1000 (independent of the `next` links). */
export async function readAll(
  http: HttpSession,
  source: ListSource,
  filter: Record<string, string> = {},
): Promise<JsonObject[]> {
  const records: JsonObject[] = [];
  const { path, base, headers } = source;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const query = { ...base, ...filter, page: String(page), page_size: '1000' };
    const current = pageOf(
      await http.request({ method: 'GET', url: path, query, headers }),
      `GET ${path} page ${page}`,
    );
    records.push(...current.results);
    if (current.next === null || current.results.length === 0) break;
  }
  return records;
}

/** A record's identity: `id`, or the `<resource>_id` some payment records carry instead (`charge_id`...). */
function idOf(record: JsonObject): string {
  if (record.id !== undefined) return String(record.id);
  const key = Object.keys(record).find((name) => name.endsWith('_id') && name !== 'external_id');
  return key === undefined ? canonicalJson(record) : String(record[key]);
}

/** The ids of records, in order. */
export const idsOf = (records: JsonObject[]) => records.map(idOf);
