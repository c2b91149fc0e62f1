/**
 * The one list machine every list operation uses. Filters come from the operation's declared query
 * parameters (the request was validated against them, so only declared ones reach here), named after
 * the record member as the provider names them: `<field>` equality, `<field>__range` (FILTER-RANGE,
 * inclusive), `<field>__in` (FILTER-IN), and the bounds `<field>__gt`, `__gte`, `__lt`, `__lte`. A
 * `__` inside the field walks into nested objects (`balance__current`, `account__balance__current`) when
 * the record has no member of that whole name. A field that holds an object is compared by its `id`.
 * Dates: a `YYYY-MM-DD` bound compares the value's date part, so `__range=a,b` is `__gte=a&__lte=b`; a
 * date-time bound compares instants. Pagination follows PAGE-DEFAULT, PAGE-MAX and PAGE-NAV.
 */
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import type { SimRequest } from '../core/http-types.js';
import { ok } from '../core/result.js';
import { publicJson, publicView } from '../store/record-views.js';
import type { StoredRecord } from '../store/store.js';
import { type Handler, json } from './handler.js';

export const DEFAULT_PAGE_SIZE = 100; // PAGE-DEFAULT
export const MAX_PAGE_SIZE = 1000; // PAGE-MAX: larger requests are served as 1000 (choice)
const PAGING = new Set(['page', 'page_size']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function comparable(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

function equals(recordValue: unknown, wanted: string): boolean {
  const value = comparable(recordValue);
  if (Array.isArray(value)) return value.some((item) => String(comparable(item)) === wanted);
  return value !== undefined && value !== null && String(value) === wanted;
}

const NOTHING_BROKEN: BrokenRules = new Set();
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;
type Bound = 'gt' | 'gte' | 'lt' | 'lte';
const BOUNDS: Bound[] = ['gt', 'gte', 'lt', 'lte'];

/** The record's value of `field`: its own member of that name, else the `__`-separated path into it. */
export function fieldValue(record: Record<string, unknown>, field: string): unknown {
  if (field in record) return record[field];
  let value: unknown = record;
  for (const step of field.split('__')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** Compares the record's value with a bound: < 0, 0, > 0, or undefined when it has no comparable value. */
function compare(recordValue: unknown, bound: string): number | undefined {
  const value = comparable(recordValue);
  if (value === null || value === undefined) return undefined;
  if (DATE.test(bound)) {
    const day = String(value).slice(0, 10);
    return day < bound ? -1 : day > bound ? 1 : 0;
  }
  if (DATE_TIME.test(bound)) return Date.parse(String(value)) - Date.parse(bound);
  const difference = Number(value) - Number(bound);
  return Number.isNaN(difference) ? undefined : difference;
}

function withinBound(recordValue: unknown, bound: Bound, wanted: string): boolean {
  const order = compare(recordValue, wanted);
  if (order === undefined) return false;
  if (bound === 'gt') return order > 0;
  if (bound === 'gte') return order >= 0;
  if (bound === 'lt') return order < 0;
  return order <= 0;
}

function inRange(recordValue: unknown, range: string, broken: BrokenRules): boolean {
  // brokenRules FILTER-RANGE: the upper bound compared exclusively.
  const below = (value: string | number, to: string | number) =>
    broken.has('FILTER-RANGE') ? value < to : value <= to;
  const [from = '', to = ''] = range.split(',');
  const value = comparable(recordValue);
  if (value === null || value === undefined) return false;
  if (DATE.test(from) && DATE.test(to)) {
    const day = String(value).slice(0, 10);
    return day >= from && below(day, to);
  }
  const number = Number(value);
  return number >= Number(from) && below(number, Number(to));
}

/** A predicate for one query parameter, or undefined for parameters that do not filter. */
function predicateFor(
  name: string,
  raw: unknown,
  broken: BrokenRules,
): ((record: StoredRecord) => boolean) | undefined {
  if (PAGING.has(name) || raw === undefined) return undefined;
  const wanted = String(raw);
  if (name.endsWith('__range')) {
    const field = name.slice(0, -'__range'.length);
    return (record) => inRange(fieldValue(record, field), wanted, broken);
  }
  if (name.endsWith('__in')) {
    const field = name.slice(0, -'__in'.length);
    const values = wanted.split(',').map((v) => v.trim());
    // brokenRules FILTER-IN: only the first value of the list kept.
    if (broken.has('FILTER-IN')) values.splice(1);
    return (record) => values.some((value) => equals(fieldValue(record, field), value));
  }
  const bound = BOUNDS.find((suffix) => name.endsWith(`__${suffix}`));
  if (bound) {
    const field = name.slice(0, -`__${bound}`.length);
    return (record) => withinBound(fieldValue(record, field), bound, wanted);
  }
  return (record) => equals(fieldValue(record, name), wanted);
}

export function filterRecords(
  records: StoredRecord[],
  query: Record<string, unknown>,
  broken = NOTHING_BROKEN,
): StoredRecord[] {
  const predicates = Object.entries(query)
    .map(([name, value]) => predicateFor(name, value, broken))
    .filter((p): p is (record: StoredRecord) => boolean => p !== undefined);
  return predicates.length === 0 ? records : records.filter((record) => predicates.every((p) => p(record)));
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

function pageUrl(request: SimRequest, page: number, pageSize: number, broken: BrokenRules): string {
  // brokenRules PAGE-DEFAULT: the links built from the paging parameters alone, the filters lost.
  const query = new URLSearchParams(broken.has('PAGE-DEFAULT') ? '' : request.query);
  query.set('page', String(page));
  query.set('page_size', String(pageSize));
  return `${request.origin}${request.path}?${query.toString()}`;
}

/** PAGE-NAV: pages are disjoint slices in order; a page past the end is empty (choice). */
export function paginate<T>(
  records: T[],
  query: Record<string, unknown>,
  request: SimRequest,
  broken = NOTHING_BROKEN,
): Page<T> {
  const page = typeof query.page === 'number' ? query.page : 1;
  const asked = typeof query.page_size === 'number' ? query.page_size : DEFAULT_PAGE_SIZE;
  const pageSize = Math.min(asked, MAX_PAGE_SIZE);
  // brokenRules PAGE-NAV: an off-by-one offset counted from 1, so the list's first record is never served.
  const start = (page - 1) * pageSize + (broken.has('PAGE-NAV') ? 1 : 0);
  const lastPage = Math.max(1, Math.ceil(records.length / pageSize));
  return {
    count: records.length,
    next: page < lastPage ? pageUrl(request, page + 1, pageSize, broken) : null,
    previous: page > 1 ? pageUrl(request, Math.min(page - 1, lastPage), pageSize, broken) : null,
    results: records.slice(start, start + pageSize),
  };
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/** `JSON.stringify` of the page's envelope with its records' public views, as bytes from cached ones. */
export function pageJson(page: Page<StoredRecord>): Buffer {
  const { count, next, previous } = page;
  const envelope = JSON.stringify({ count, next, previous });
  const parts: Buffer[] = [Buffer.from(`${envelope.slice(0, -1)},"results":[`)];
  page.results.forEach((record, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(publicJson(record));
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/** The list handler of a stored collection: the tenant's records, filtered and paginated. */
export function collectionList(collection: string): Handler {
  return async ({ input, tenant, request }) => {
    const link = typeof input.query.link === 'string' ? input.query.link : undefined;
    const stored = await tenant.store.list(tenant.id, collection, link === undefined ? {} : { link });
    // The store already kept the link's records (indexed); only the other filters scan them, and only the
    // page's records are copied without their private members (a list may hold a million).
    const { link: _byStore, ...filters } = input.query;
    // brokenRules INVOICE-CANCELLED: the invoices' `status` filter dropped.
    if (collection === '/api/invoices/' && tenant.brokenRules.has('INVOICE-CANCELLED')) delete filters.status;
    const broken = tenant.brokenRules;
    const page = paginate(filterRecords(stored, filters, broken), input.query, request, broken);
    const response = json(200, { ...page, results: page.results.map(publicView) });
    return ok({ ...response, serialize: () => pageJson(page) });
  };
}
