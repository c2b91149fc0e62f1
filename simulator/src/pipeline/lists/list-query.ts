/**
 * The one list machine every list operation uses: the tenant's records, filtered (list-filters.ts:
 * FILTER-IN, FILTER-RANGE, FILTER-LOOKUP, from the operation's declared parameters) and paginated
 * (PAGE-DEFAULT, PAGE-MAX, PAGE-NAV).
 */
import { type Handler, json } from '../../core/handler.js';
import type { BufferLender, SimRequest } from '../../core/http-types.js';
import { ok } from '../../core/result.js';
import { type ListPolicy, specRulePolicy } from '../../core/rule-policy.js';
import { publicJson, publicView } from '../../store/record-views.js';
import type { StoredRecord } from '../../store/store.js';
import { declaredFilters, filterRecords, hasFilters } from './list-filters.js';

export const DEFAULT_PAGE_SIZE = 100; // PAGE-DEFAULT
export const MAX_PAGE_SIZE = 1000; // PAGE-MAX: larger requests are served as 1000 (choice)

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

function pageUrl(request: SimRequest, page: number, pageSize: number, policy: ListPolicy): string {
  // PAGE-DEFAULT: a client follows `next` as it is, so it carries the request's filters (choice).
  const query = new URLSearchParams(policy.pageLinksKeepQuery ? request.query : '');
  query.set('page', String(page));
  query.set('page_size', String(pageSize));
  const origin = policy.pageLinksAbsolute ? request.origin : '';
  return `${origin}${request.path}?${query.toString()}`;
}

/** Which slice of the list a page is: PAGE-DEFAULT and PAGE-MAX size it. */
export interface PageWindow {
  page: number;
  pageSize: number;
  /** The first record's position in the list (undefined below page 1: the page is empty). */
  start: number | undefined;
}

export function pageWindow(
  query: Record<string, unknown>,
  policy: ListPolicy = specRulePolicy().lists,
): PageWindow {
  const page = typeof query.page === 'number' ? query.page : 1;
  const asked = typeof query.page_size === 'number' ? query.page_size : DEFAULT_PAGE_SIZE;
  const pageSize = Math.min(asked, MAX_PAGE_SIZE);
  return { page, pageSize, start: page < 1 ? undefined : (page - 1) * pageSize + policy.firstRecordOffset };
}

/**
 * PAGE-NAV: pages are disjoint slices in order; a page past the end is empty (choice). PAGE-MAX: a page
 * below 1 (the provider's `page` states no minimum, so it is not refused) is empty too, its `next`
 * the first page (choice). `results` are the window's records of a list of `total`.
 */
export function pageOf<T>(
  window: PageWindow,
  total: number,
  results: T[],
  request: SimRequest,
  policy: ListPolicy = specRulePolicy().lists,
): Page<T> {
  const { page, pageSize } = window;
  if (window.start === undefined) {
    const next = total > 0 ? pageUrl(request, 1, pageSize, policy) : null;
    return { count: total, next, previous: null, results: [] };
  }
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  return {
    count: total,
    next: page < lastPage ? pageUrl(request, page + 1, pageSize, policy) : null,
    previous: page > 1 ? pageUrl(request, Math.min(page - 1, lastPage), pageSize, policy) : null,
    results,
  };
}

/** The window's records of a whole list. */
const windowOf = <T>(records: T[], { start, pageSize }: PageWindow): T[] =>
  start === undefined ? [] : records.slice(start, start + pageSize);

/** The page of `records` the query asks for (PAGE-NAV, PAGE-DEFAULT, PAGE-MAX). */
export function paginate<T>(
  records: T[],
  query: Record<string, unknown>,
  request: SimRequest,
  policy: ListPolicy = specRulePolicy().lists,
): Page<T> {
  const window = pageWindow(query, policy);
  return pageOf(window, records.length, windowOf(records, window), request, policy);
}

const COMMA = 0x2c;
const CLOSE = Buffer.from(']}');

/**
 * `JSON.stringify` of the page's envelope with its records' public views, as bytes from cached ones,
 * written into a buffer of the lender's when one is given: each record's bytes copied once, the commas
 * between them written as bytes (a copy each cost as much as a record's).
 */
export function pageJson(page: Page<StoredRecord>, lender?: BufferLender): Buffer {
  const { count, next, previous, results } = page;
  const envelope = JSON.stringify({ count, next, previous });
  const head = Buffer.from(`${envelope.slice(0, -1)},"results":[`);
  const records: Buffer[] = new Array(results.length);
  let size = head.length + Math.max(0, results.length - 1) + CLOSE.length;
  for (let index = 0; index < results.length; index++) {
    const json = publicJson(results[index]!);
    records[index] = json;
    size += json.length;
  }
  const bytes = lender === undefined ? Buffer.allocUnsafe(size) : lender.borrow(size);
  let at = head.copy(bytes, 0);
  for (let index = 0; index < records.length; index++) {
    if (index > 0) bytes[at++] = COMMA;
    at += records[index]!.copy(bytes, at);
  }
  CLOSE.copy(bytes, at);
  return bytes;
}

/**
 * The records of a page and the list's length: without a filter only the page's records leave the store
 * (a link may hold a million); with one, the link's records are filtered here.
 */
async function pageRecords(
  { input, tenant, operation }: Parameters<Handler>[0],
  collection: string,
  window: PageWindow,
): Promise<{ total: number; results: StoredRecord[] }> {
  const link = typeof input.query.link === 'string' ? input.query.link : undefined;
  const where = link === undefined ? {} : { link };
  // The store already kept the link's records (indexed); only the other filters scan them.
  const filters: Record<string, unknown> = {};
  for (const name in input.query) if (name !== 'link') filters[name] = input.query[name];
  const policy = tenant.policy.lists;
  if (!hasFilters(filters)) {
    // Below page 1 the window is empty: the store gives the list's length alone.
    const { start = 0, pageSize } = window;
    const count = window.start === undefined ? 0 : pageSize;
    const slice = await tenant.store.listSlice(collection, where, start, count);
    return { total: slice.total, results: slice.records };
  }
  const stored = await tenant.store.list(collection, where);
  const kept = filterRecords(stored, filters, policy, declaredFilters(operation));
  return { total: kept.length, results: windowOf(kept, window) };
}

/** The list handler of a stored collection: the tenant's records, filtered and paginated. */
export function collectionList(collection: string): Handler {
  return async (context) => {
    const { input, tenant, request } = context;
    const policy = tenant.policy.lists;
    const window = pageWindow(input.query, policy);
    const { total, results } = await pageRecords(context, collection, window);
    const page = pageOf(window, total, results, request, policy);
    // Only the page's records are copied without their private members. Written out, not spread: spread
    // copies on the request path cost more CPU per request (see the HTTP adapter).
    const { count, next, previous } = page;
    const response = json(200, { count, next, previous, results: page.results.map(publicView) });
    response.serialize = (lender) => pageJson(page, lender);
    return ok(response);
  };
}
