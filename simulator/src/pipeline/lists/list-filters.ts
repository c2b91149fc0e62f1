/**
 * The filters of the one list machine. They come from the operation's declared query parameters (the
 * request was validated against them, so only declared ones reach here), named after the record member
 * as the provider names them, with a lookup suffix: none (exact match), `__in` (FILTER-IN), `__not_in`,
 * `__range` (FILTER-RANGE, inclusive), the bounds `__gt`, `__gte`, `__lt`, `__lte`, `__icontains`
 * (case-insensitive substring) and `__allin` (an array member holding every value) (FILTER-LOOKUP);
 * `iexact`, a case-insensitive exact match, only where a parameter's `x-filter` names it.
 * A parameter whose name is not its member's path says which member and lookup it means in the
 * document's `x-filter` (`{ member, lookup }`: the provider's `ejercicio` is our `year`). A `__` inside
 * the member walks into nested objects (`balance__current`, `account__balance__current`) when the record
 * has no member of that whole name. A member that holds an object is compared by its `id`; one that holds
 * an array matches when one element does. Dates: a `YYYY-MM-DD` value compares the member's date part,
 * so `__range=a,b` is `__gte=a&__lte=b` and `created_at=a` is the day a; a date-time compares instants.
 * `fields` and `omit` shape the response (pipeline/project-fields.ts), they do not filter.
 */

import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { type ListPolicy, specRulePolicy } from '../../core/rule-policy.js';
import type { StoredRecord } from '../../store/store.js';

/** Query parameters that page or shape the answer rather than filter it. */
const NOT_FILTERS = new Set(['page', 'page_size', 'fields', 'omit']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

function comparable(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

function equals(recordValue: unknown, wanted: string): boolean {
  const value = comparable(recordValue);
  if (Array.isArray(value)) return value.some((item) => equals(item, wanted));
  if (value === undefined || value === null) return false;
  // A date or date-time asked of a date-time member: the same day, or the same instant.
  if (typeof value === 'string' && DATE_TIME.test(value) && (DATE.test(wanted) || DATE_TIME.test(wanted)))
    return compare(value, wanted) === 0;
  // `balance__current=100.50` matches 100.5: numbers compare as numbers.
  if (typeof value === 'number') return wanted.trim() !== '' && Number(wanted) === value;
  return String(value) === wanted;
}

type Bound = 'gt' | 'gte' | 'lt' | 'lte';
const BOUNDS: Bound[] = ['gt', 'gte', 'lt', 'lte'];

/**
 * The record's value of `field`: its own member of that name, else the `__`-separated path into it. A
 * path through an array reads every element (the incomes' `account` filter is any of its streams'
 * `account_id`): the value is then the list of what they hold, which an exact or `__in` match checks
 * for any.
 */
export function fieldValue(record: Record<string, unknown>, field: string): unknown {
  if (field in record) return record[field];
  return walk(record, field.split('__'));
}

function walk(value: unknown, steps: readonly string[]): unknown {
  if (steps.length === 0) return value;
  if (Array.isArray(value))
    return value.flatMap((item) => [walk(item, steps)].flat().filter((v) => v !== undefined));
  if (typeof value !== 'object' || value === null) return undefined;
  const [step = '', ...rest] = steps;
  return walk((value as Record<string, unknown>)[step], rest);
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

function withinBound(recordValue: unknown, bound: Bound, wanted: string, policy: ListPolicy): boolean {
  const order = compare(recordValue, wanted);
  if (order === undefined) return false;
  const strict = policy.strictBounds === 'exclusive';
  if (bound === 'gt') return strict ? order > 0 : order >= 0;
  if (bound === 'gte') return order >= 0;
  if (bound === 'lt') return strict ? order < 0 : order <= 0;
  return order <= 0;
}

function inRange(recordValue: unknown, range: string, policy: ListPolicy): boolean {
  // FILTER-RANGE: both bounds inclusive.
  const below = (value: string | number, to: string | number) =>
    policy.rangeUpperBound === 'exclusive' ? value < to : value <= to;
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

/** What a filter parameter compares: the record member (a `__` path) and how. */
export type Lookup = 'exact' | 'iexact' | 'in' | 'not_in' | 'range' | Bound | 'icontains' | 'allin';
export interface FilterSpec {
  member: string;
  lookup: Lookup;
}
/** The document's `x-filter` of a parameter, when its name alone does not say the member or lookup. */
export type FilterDeclaration = Partial<FilterSpec>;
const SUFFIXES: Exclude<Lookup, 'exact' | 'iexact'>[] = [
  'not_in',
  'in',
  'range',
  ...BOUNDS,
  'icontains',
  'allin',
];

/** The member and lookup of a filter parameter: its `x-filter`, else its name's suffix and stem. */
export function filterSpecOf(name: string, declared: FilterDeclaration = {}): FilterSpec {
  const suffix = SUFFIXES.find((lookup) => name.endsWith(`__${lookup}`));
  const stem = suffix === undefined ? name : name.slice(0, -(suffix.length + 2));
  return { member: declared.member ?? stem, lookup: declared.lookup ?? suffix ?? 'exact' };
}

const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

const listOf = (wanted: string) => wanted.split(',').map((value) => value.trim());

function contains(recordValue: unknown, wanted: string, policy: ListPolicy): boolean {
  const value = comparable(recordValue);
  if (value === undefined || value === null || typeof value === 'object') return false;
  if (!policy.containsIgnoresCase) return String(value).includes(wanted);
  return String(value).toLowerCase().includes(wanted.toLowerCase());
}

function holdsAll(recordValue: unknown, values: string[]): boolean {
  if (!Array.isArray(recordValue)) return false;
  return values.every((value) => recordValue.some((item) => equals(item, value)));
}

/** Whether a query parameter filters (paging and shaping parameters, and absent ones, do not). */
const isFilter = (name: string, value: unknown) => !NOT_FILTERS.has(name) && value !== undefined;

/** A predicate for one query parameter, or undefined for parameters that do not filter. */
function predicateFor(
  name: string,
  raw: unknown,
  policy: ListPolicy,
  declared?: FilterDeclaration,
): ((record: StoredRecord) => boolean) | undefined {
  if (!isFilter(name, raw)) return undefined;
  const wanted = String(raw);
  const { member, lookup } = filterSpecOf(name, declared);
  const memberOf = (record: StoredRecord) => fieldValue(record, member);
  switch (lookup) {
    case 'range':
      return (record) => inRange(memberOf(record), wanted, policy);
    case 'in': {
      const values = listOf(wanted);
      if (policy.inValues === 'first') values.splice(1);
      return (record) => values.some((value) => equals(memberOf(record), value));
    }
    case 'not_in': {
      // The provider's exclusion: a record without the member is not in the list, so it stays.
      const values = listOf(wanted);
      return (record) => !values.some((value) => equals(memberOf(record), value));
    }
    case 'icontains':
      return (record) => contains(memberOf(record), wanted, policy);
    case 'allin': {
      const values = listOf(wanted);
      return (record) => holdsAll(memberOf(record), values);
    }
    case 'exact':
      return (record) => equals(memberOf(record), wanted);
    case 'iexact':
      return (record) => equals(lowerCase(memberOf(record)), wanted.toLowerCase());
    default:
      return (record) => withinBound(memberOf(record), lookup, wanted, policy);
  }
}

/** Whether any member of the query filters (paging and shaping parameters do not). */
export function hasFilters(query: Record<string, unknown>): boolean {
  return Object.entries(query).some(([name, value]) => isFilter(name, value));
}

export function filterRecords(
  records: StoredRecord[],
  query: Record<string, unknown>,
  policy: ListPolicy = specRulePolicy().lists,
  declared: ReadonlyMap<string, FilterDeclaration> = new Map(),
): StoredRecord[] {
  const predicates = Object.entries(query)
    .map(([name, value]) => predicateFor(name, value, policy, declared.get(name)))
    .filter((p): p is (record: StoredRecord) => boolean => p !== undefined);
  return predicates.length === 0 ? records : records.filter((record) => predicates.every((p) => p(record)));
}

const declarations = new WeakMap<ApiOperation, ReadonlyMap<string, FilterDeclaration>>();

/** The `x-filter` declarations of an operation's query parameters, read once per operation. */
export function declaredFilters(operation: ApiOperation): ReadonlyMap<string, FilterDeclaration> {
  let found = declarations.get(operation);
  if (found === undefined) {
    found = new Map(
      operation.parameters
        .filter((p) => p.in === 'query' && p.filter !== undefined)
        .map((p) => [p.name, p.filter as FilterDeclaration]),
    );
    declarations.set(operation, found);
  }
  return found;
}
