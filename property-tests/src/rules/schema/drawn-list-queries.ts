/**
 * List queries drawn from the records the target stores (generated filters stack junk ids
 * and impossible dates, so nearly every list answer was an empty page and record shapes in lists went
 * unchecked). From one page of the list: an exact match on a stored id (with one more field of that
 * record), `__in` on two stored ids, and `__range` one day either side of a stored date. Each keeps at
 * least one record wherever the target filters as documented (FILTER-IN, FILTER-RANGE), so the schema
 * row validates record shapes; whether the filters are right is the FILTER rules' business, not this.
 * Where the list declares `fields`, a fourth request keeps two members of the records: its answer is
 * checked against the projected schema (only those members, each valid).
 */
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { ApiOperation, ApiParameter } from '../../../../openapi/document/operation-index.js';
import { fillPath, type RequestInput } from '../../arbitraries/request-arbitrary.js';
import { fieldTexts, kindOf } from '../cross-cutting/filter-targets.js';
import { isSkip, type SuiteContext } from '../rule.js';
import { requiredHeaders, seedCollection } from '../seed-collection.js';

/** The drawn requests per list (they take the place of as many random runs). */
export const DRAWN_QUERIES = 4;
const PAGING = new Set(['page', 'page_size']);
const DAY_MS = 86_400_000;
/** Parents tried for a nested list that is empty under the known one. */
const MAX_PARENTS = 20;
/** Dates every record of a retrieval shares: a range around them keeps the whole list. */
const BATCH_DATES = new Set(['created_at__range', 'collected_at__range']);

/** A list operation: a GET that pages (collections and nested ones, like an intent's charges). */
export const isListOperation = (operation: ApiOperation) =>
  operation.method === 'GET' &&
  operation.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'page_size');

type Query = Record<string, string>;

const firstText = (record: JsonObject | undefined, field: string) =>
  record === undefined ? undefined : fieldTexts(record[field])[0];

/** The query every list request of the row keeps: required parameters and the known link. */
function baseQuery(operation: ApiOperation, known: RequestInput): Query {
  const kept = new Set(['link']);
  for (const p of operation.parameters) if (p.in === 'query' && p.required) kept.add(p.name);
  return Object.fromEntries(Object.entries(known.query).filter(([name]) => kept.has(name)));
}

interface ListRequest {
  pathParams: Query;
  query: Query;
  headers: Query;
}

/** One page of the records the target stores for `request`. */
async function readPage(suite: SuiteContext, operation: ApiOperation, request: ListRequest) {
  const url = fillPath(operation.path, request.pathParams);
  const answer = await suite.http.request({
    method: 'GET',
    url,
    query: request.query,
    headers: request.headers,
  });
  const page = answer.status === 200 && isObject(answer.json) ? answer.json.results : undefined;
  return Array.isArray(page) ? page.filter(isObject) : [];
}

/**
 * A nested list (an exchange's history, an intent's charges) may be empty under the known parent:
 * another parent of the same link may have records; the first with some is taken.
 */
async function parentWithRecords(
  suite: SuiteContext,
  operation: ApiOperation,
  request: ListRequest,
): Promise<{ pathParams: Query; records: JsonObject[] } | undefined> {
  const last = [...operation.path.matchAll(/\{([^}]+)\}/g)].pop();
  if (!last || last.index === undefined) return undefined;
  const template = operation.path.slice(0, last.index);
  const parentList = suite.document.operations.find((op) => op.method === 'GET' && op.path === template);
  const byLink = parentList?.parameters.some((p) => p.name === 'link' && p.in === 'query');
  const query: Query = byLink && request.query.link ? { link: request.query.link } : {};
  const parents = await suite.fixtures.listAll(fillPath(template, request.pathParams), query);
  if (isSkip(parents)) return undefined;
  // Newest first: the parents the suite moved furthest (an authorized intent) come last.
  for (const parent of parents.slice(-MAX_PARENTS).reverse()) {
    const id = fieldTexts(parent[last[1]!] ?? parent.id)[0];
    if (id === undefined) continue;
    const pathParams = { ...request.pathParams, [last[1]!]: id };
    const records = await readPage(suite, operation, { ...request, pathParams });
    if (records.length > 0) return { pathParams, records };
  }
  return undefined;
}

/** The stored records of the list (seeding an empty collection once), under the parent that has some. */
async function storedRecords(
  suite: SuiteContext,
  operation: ApiOperation,
  request: ListRequest,
): Promise<{ pathParams: Query; records: JsonObject[] }> {
  const records = await readPage(suite, operation, request);
  if (records.length > 0) return { pathParams: request.pathParams, records };
  if (operation.path.includes('{')) {
    return (
      (await parentWithRecords(suite, operation, request)) ?? { pathParams: request.pathParams, records }
    );
  }
  await seedCollection(suite, operation.path, operation.path, request.query.link);
  return { pathParams: request.pathParams, records: await readPage(suite, operation, request) };
}

/** The filters a request may add: query parameters outside paging and the base query. */
function filterParameters(operation: ApiOperation, base: Query): ApiParameter[] {
  return operation.parameters.filter(
    (p) =>
      p.in === 'query' && !PAGING.has(p.name) && p.name !== 'link' && !p.shapesResponse && !(p.name in base),
  );
}

/** The id field a list filters on: `id`, else a `<name>_id`, else any exact filter with an `__in` twin. */
function idField(parameters: ApiParameter[], record: JsonObject): string | undefined {
  const names = new Set(parameters.map((p) => p.name));
  const candidates = [...names].filter((name) => names.has(`${name}__in`) && firstText(record, name));
  return (
    candidates.find((name) => name === 'id') ??
    candidates.find((name) => name.endsWith('_id')) ??
    candidates[0]
  );
}

/** An exact match on the record's id, with one more exact filter of the same record. */
function exactQuery(parameters: ApiParameter[], record: JsonObject): Query | undefined {
  const exact = parameters.filter((p) => !p.name.includes('__'));
  const id = idField(parameters, record) ?? exact.find((p) => firstText(record, p.name))?.name;
  if (id === undefined) return undefined;
  const query: Query = { [id]: firstText(record, id)! };
  const other = exact.find((p) => p.name !== id && firstText(record, p.name) !== undefined);
  if (other) query[other.name] = firstText(record, other.name)!;
  return query;
}

/** `__in` on the ids of two stored records (or another `__in` filter the records hold). */
function inQuery(parameters: ApiParameter[], records: JsonObject[]): Query | undefined {
  const some = [records[records.length - 1]!, records[Math.floor(records.length / 2)]!];
  const id = idField(parameters, some[0]!);
  const ins = parameters.filter((p) => p.name.endsWith('__in'));
  const param =
    ins.find((p) => p.name === `${id}__in`) ??
    ins.find((p) => firstText(some[0], p.name.slice(0, -'__in'.length)) !== undefined);
  if (!param) return undefined;
  const field = param.name.slice(0, -'__in'.length);
  const values = [...new Set(some.map((record) => firstText(record, field)).filter((v) => v !== undefined))];
  return { [param.name]: values.join(',') };
}

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** `__range` one day either side of the record's own date (a date of its own before a batch one). */
function rangeQuery(suite: SuiteContext, parameters: ApiParameter[], record: JsonObject): Query | undefined {
  const ranges = parameters
    .filter((p) => p.name.endsWith('__range'))
    .map((p) => ({
      name: p.name,
      kind: kindOf(suite, p.name, p.schema),
      value: firstText(record, p.name.slice(0, -7)),
    }))
    .filter((r) => r.value !== undefined);
  const dates = ranges.filter((r) => r.kind === 'date-range' && /^\d{4}-\d{2}-\d{2}/.test(r.value!));
  const date = dates.find((r) => !BATCH_DATES.has(r.name)) ?? dates[0];
  if (date) {
    const day = date.value!.slice(0, 10);
    return { [date.name]: `${shiftDay(day, -1)},${shiftDay(day, 1)}` };
  }
  const number = ranges.find((r) => r.kind === 'number-range' && Number.isFinite(Number(r.value)));
  if (!number) return undefined;
  const value = Number(number.value);
  return { [number.name]: `${Math.floor(value) - 1},${Math.ceil(value) + 1}` };
}

/** `fields` naming `id` and the record's last member (a nested one kept whole), where declared. */
function shapingQuery(operation: ApiOperation, record: JsonObject): Query | undefined {
  const declared = operation.parameters.some((p) => p.in === 'query' && p.name === 'fields');
  const names = Object.keys(record);
  if (!declared || names.length === 0) return undefined;
  return { fields: [...new Set(['id', names[names.length - 1]!])].join(',') };
}

/**
 * The list row's first request (the known link and parent, no generated filter: the success status
 * with records) and its requests with filters drawn from the stored records (at most DRAWN_QUERIES;
 * none, with a note, when the list holds no record the suite can read).
 */
export async function listRequests(
  suite: SuiteContext,
  operation: ApiOperation,
  known: RequestInput,
  note: (text: string) => void,
): Promise<{ known: RequestInput; drawn: RequestInput[] }> {
  const base = baseQuery(operation, known);
  const headers = requiredHeaders(suite, operation);
  const stored = await storedRecords(suite, operation, {
    pathParams: known.pathParams,
    query: base,
    headers,
  });
  const plain = { ...known, pathParams: stored.pathParams, query: base };
  const { records } = stored;
  if (records.length === 0) {
    note(
      `${fillPath(operation.path, plain.pathParams)} holds no record to draw filters from: generated filters only`,
    );
    return { known: plain, drawn: [] };
  }
  const parameters = filterParameters(operation, base);
  const middle = records[Math.floor(records.length / 2)]!;
  const queries = [
    exactQuery(parameters, records[0]!),
    inQuery(parameters, records),
    rangeQuery(suite, parameters, middle),
    shapingQuery(operation, records[0]!),
  ].filter((query): query is Query => query !== undefined);
  const drawn = queries.map((query) => ({
    pathParams: plain.pathParams,
    query: { ...base, ...query },
    headers,
  }));
  return { known: plain, drawn };
}
