/**
 * A filtered list against its query: every record it holds matches every filter (soundness), and,
 * when the session holds the whole unfiltered list of the same collection and link with nothing
 * written since, it holds exactly the records of that list that match, as many as `count` says
 * (completeness). FILTER-IN, FILTER-RANGE and FILTER-LOOKUP by lookup; INVOICE-CANCELLED and
 * PAY-ENROLLMENT for the status filters their rules name. Order-based lookups on personal members are
 * not judged: a recording's pseudonyms keep equality, not order.
 */
import type { BridgeDocument, BridgeOperation } from '../../document/bridge-document.js';
import { type FilterSpec, filterSpecOf } from '../../document/filter-spec.js';
import { createPersonalFilterLookup } from '../../redaction/personal-members.js';
import { type ExchangeView, isSuccess, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { collectionOf, recordIdOf, ruleFinding, type SessionCheck } from '../session-check.js';
import { matchesFilter } from './filter-match.js';

const SHAPING = new Set(['fields', 'omit', 'page', 'page_size']);
const ORDERED = new Set(['range', 'gt', 'gte', 'lt', 'lte', 'icontains']);

/** The rule a filter answers to: its lookup's, or the rule that names that very filter. */
function ruleOf(collection: string, spec: FilterSpec): string {
  if (collection === '/api/invoices/' && spec.member === 'status') return 'INVOICE-CANCELLED';
  if (collection === '/payments/br/enrollments/' && spec.member === 'status') return 'PAY-ENROLLMENT';
  if (spec.lookup === 'in') return 'FILTER-IN';
  if (spec.lookup === 'range') return 'FILTER-RANGE';
  return 'FILTER-LOOKUP';
}

interface Listing {
  records: Record<string, unknown>[];
}

export function createFiltersCheck(document: BridgeDocument): SessionCheck {
  const personal = createPersonalFilterLookup(document);
  /** tenant|collection|link -> the whole list, while nothing was written since. */
  const listings = new Map<string, Listing>();
  const keyOf = (view: ExchangeView, collection: string) =>
    `${view.tenant}|${collection}|${view.query.get('link') ?? ''}`;

  function filtersOf(view: ExchangeView, operation: BridgeOperation) {
    const specs: { spec: FilterSpec; wanted: string }[] = [];
    for (const [name, wanted] of view.query) {
      const spec = filterSpecOf(operation, name);
      if (spec === undefined || SHAPING.has(name)) continue;
      if (ORDERED.has(spec.lookup) && personal(operation, spec.member)) continue;
      specs.push({ spec, wanted });
    }
    return specs;
  }

  function remember(view: ExchangeView, collection: string): void {
    const page = view.responseJson as { count?: unknown; results?: unknown[] };
    const names = [...view.query.keys()].filter((name) => !['link', 'page', 'page_size'].includes(name));
    const whole = (view.query.get('page') ?? '1') === '1' && page.count === page.results?.length;
    if (names.length === 0 && whole) listings.set(keyOf(view, collection), { records: recordsOf(view) });
  }

  function judge(
    view: ExchangeView,
    collection: string,
    filters: { spec: FilterSpec; wanted: string }[],
  ): Finding[] {
    const findings: Finding[] = [];
    const records = recordsOf(view);
    for (const { spec, wanted } of filters) {
      const stray = records.find((record) => !matchesFilter(record, spec, wanted));
      if (stray === undefined) continue;
      const id = recordIdOf(stray) ?? '?';
      findings.push(
        ruleFinding(
          view,
          ruleOf(collection, spec),
          `record ${id} does not match \`${spec.param}=${wanted}\``,
        ),
      );
    }
    const known = listings.get(keyOf(view, collection));
    const page = view.responseJson as { count?: unknown };
    const onFirstPage = (view.query.get('page') ?? '1') === '1';
    if (known === undefined || findings.length > 0 || !onFirstPage || view.query.has('fields'))
      return findings;
    const expected = known.records.filter((record) =>
      filters.every(({ spec, wanted }) => matchesFilter(record, spec, wanted)),
    );
    const held = new Set(records.map(recordIdOf));
    const missing = expected.filter((record) => !held.has(recordIdOf(record)));
    if (page.count !== expected.length || (records.length === page.count && missing.length > 0)) {
      const rules = [...new Set(filters.map(({ spec }) => ruleOf(collection, spec)))];
      const query = filters.map(({ spec, wanted }) => `${spec.param}=${wanted}`).join('&');
      const message = `\`${query}\` answered ${String(page.count)} records; the whole list seen before holds ${expected.length} that match`;
      for (const rule of rules) findings.push(ruleFinding(view, rule, message));
    }
    return findings;
  }

  return {
    observe(view) {
      if (view.control) {
        listings.clear();
        return [];
      }
      const { operation } = view;
      const collection = collectionOf(view);
      if (!operation || collection === undefined) return [];
      if (view.method !== 'GET') {
        // A write may change any list of the tenant (a cascade, a retrieval): forget them.
        if (isSuccess(view))
          for (const key of [...listings.keys()]) if (key.startsWith(`${view.tenant}|`)) listings.delete(key);
        return [];
      }
      if (!isSuccess(view) || !Array.isArray((view.responseJson as { results?: unknown })?.results))
        return [];
      const filters = filtersOf(view, operation).filter(({ spec }) => spec.param !== 'link');
      if (filters.length === 0) {
        remember(view, collection);
        return [];
      }
      return judge(view, collection, filters);
    },
  };
}
