/**
 * The client's reading of a list filter, to judge an answer by: the record's member (a `__` path into
 * nested objects, any element of an array; an object compared by its `id`) against the wanted value
 * with the lookup (rules FILTER-IN, FILTER-RANGE, FILTER-LOOKUP). A `YYYY-MM-DD` value compares the
 * member's day; numbers compare as numbers. Written apart from the simulator's filters on purpose: the
 * same misreading in both would hide itself.
 */
import type { FilterSpec } from '../../document/filter-spec.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

type Scalar = string | number | boolean;

/** The member's scalar values: through `__` steps and arrays, an object by its `id`. */
export function memberValues(record: unknown, member: string): Scalar[] {
  const record_ = record as Record<string, unknown>;
  const start = member in record_ ? [record_[member]] : walk(record, member.split('__'));
  return start.flatMap(scalars);
}

function walk(value: unknown, steps: readonly string[]): unknown[] {
  if (steps.length === 0) return [value];
  if (Array.isArray(value)) return value.flatMap((item) => walk(item, steps));
  if (typeof value !== 'object' || value === null) return [];
  const [step = '', ...rest] = steps;
  return walk((value as Record<string, unknown>)[step], rest);
}

function scalars(value: unknown): Scalar[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(scalars);
  if (typeof value === 'object') return 'id' in value ? scalars((value as { id: unknown }).id) : [];
  return [value as Scalar];
}

/** < 0, 0, > 0 between a member value and a wanted bound; undefined when they do not compare. */
function order(value: Scalar, wanted: string): number | undefined {
  if (DATE.test(wanted)) {
    const day = String(value).slice(0, 10);
    return day < wanted ? -1 : day > wanted ? 1 : 0;
  }
  if (DATE_TIME.test(wanted)) {
    const difference = Date.parse(String(value)) - Date.parse(wanted);
    return Number.isNaN(difference) ? undefined : difference;
  }
  const difference = Number(value) - Number(wanted);
  return Number.isNaN(difference) || wanted.trim() === '' ? undefined : difference;
}

function same(value: Scalar, wanted: string): boolean {
  if (typeof value === 'number') return wanted.trim() !== '' && Number(wanted) === value;
  if (typeof value === 'string' && DATE_TIME.test(value) && (DATE.test(wanted) || DATE_TIME.test(wanted)))
    return order(value, wanted) === 0;
  return String(value) === wanted;
}

const listOf = (wanted: string) => wanted.split(',').map((part) => part.trim());

function bound(values: readonly Scalar[], wanted: string, keep: (difference: number) => boolean): boolean {
  return values.some((value) => {
    const difference = order(value, wanted);
    return difference !== undefined && keep(difference);
  });
}

/** Whether `record` matches the filter `spec` asked with `wanted`. */
export function matchesFilter(record: unknown, spec: FilterSpec, wanted: string): boolean {
  const values = memberValues(record, spec.member);
  switch (spec.lookup) {
    case 'exact':
      return values.some((value) => same(value, wanted));
    case 'in':
      return listOf(wanted).some((one) => values.some((value) => same(value, one)));
    case 'not_in':
      return !listOf(wanted).some((one) => values.some((value) => same(value, one)));
    case 'allin':
      return listOf(wanted).every((one) => values.some((value) => same(value, one)));
    case 'icontains':
      return values.some((value) => String(value).toLowerCase().includes(wanted.toLowerCase()));
    case 'range': {
      const [from = '', to = ''] = wanted.split(',');
      return values.some((value) => {
        const low = order(value, from);
        const high = order(value, to);
        return low !== undefined && high !== undefined && low >= 0 && high <= 0;
      });
    }
    case 'gt':
      return bound(values, wanted, (d) => d > 0);
    case 'gte':
      return bound(values, wanted, (d) => d >= 0);
    case 'lt':
      return bound(values, wanted, (d) => d < 0);
    case 'lte':
      return bound(values, wanted, (d) => d <= 0);
  }
}
