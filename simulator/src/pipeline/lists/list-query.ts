/**
 * The one list machine every list operation uses: the tenant's records, filtered (list-filters.ts:
 * FILTER-IN, FILTER-RANGE, FILTER-LOOKUP, from the operation's declared parameters) and paginated
 * (PAGE-DEFAULT, PAGE-MAX, PAGE-NAV).
 */
import { type Handler, json } from '../../core/handler.js';
import type { SimRequest } from '../../core/http-types.js';
import { ok } from '../../core/result.js';
import { type ListPolicy, specRulePolicy } from '../../core/rule-policy.js';
import { publicJson, publicView } from '../../store/record-views.js';
import type { StoredRecord } from '../../store/store.js';
import { declaredFilters, filterRecords } from './list-filters.js';

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

/**
 * PAGE-NAV: pages are disjoint slices in order; a page past the end is empty (choice). PAGE-MAX: a page
 * below 1 (the provider's `page` states no minimum, so it is not refused) is empty too, its `next`
 * the first page (choice).
 */
export function paginate<T>(
  records: T[],
  query: Record<string, unknown>,
  request: SimRequest,
  policy: ListPolicy = specRulePolicy().lists,
): Page<T> {
  const page = typeof query.page === 'number' ? query.page : 1;
  const asked = typeof query.page_size === 'number' ? query.page_size : DEFAULT_PAGE_SIZE;
  const pageSize = Math.min(asked, MAX_PAGE_SIZE);
  if (page < 1) {
    const next = records.length > 0 ? pageUrl(request, 1, pageSize, policy) : null;
    return { count: records.length, next, previous: null, results: [] };
  }
  const start = (page - 1) * pageSize + policy.firstRecordOffset;
  const lastPage = Math.max(1, Math.ceil(records.length / pageSize));
  return {
    count: records.length,
    next: page < lastPage ? pageUrl(request, page + 1, pageSize, policy) : null,
    previous: page > 1 ? pageUrl(request, Math.min(page - 1, lastPage), pageSize, policy) : null,
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
  return async ({ input, tenant, request, operation }) => {
    const link = typeof input.query.link === 'string' ? input.query.link : undefined;
    const stored = await tenant.store.list(collection, link === undefined ? {} : { link });
    // The store already kept the link's records (indexed); only the other filters scan them, and only the
    // page's records are copied without their private members (a list may hold a million).
    const { link: _byStore, ...filters } = input.query;
    const policy = tenant.policy.lists;
    const kept = filterRecords(stored, filters, policy, declaredFilters(operation));
    const page = paginate(kept, input.query, request, policy);
    const response = json(200, { ...page, results: page.results.map(publicView) });
    return ok({ ...response, serialize: () => pageJson(page) });
  };
}
