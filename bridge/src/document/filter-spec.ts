/**
 * What a list's query parameter filters: the record member (a `__` path into nested objects) and the
 * lookup, from the parameter's name (`amount__gte`) or its `x-filter` where the name does not say
 * (`ejercicio` is `year`). Paging and shaping parameters filter nothing.
 */
import type { BridgeOperation } from './bridge-document.js';

export type Lookup =
  | 'exact'
  | 'in'
  | 'not_in'
  | 'range'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'icontains'
  | 'allin';

export interface FilterSpec {
  param: string;
  member: string;
  lookup: Lookup;
}

const SUFFIXES: Exclude<Lookup, 'exact'>[] = [
  'not_in',
  'in',
  'range',
  'gte',
  'gt',
  'lte',
  'lt',
  'icontains',
  'allin',
];
const NOT_FILTERS = new Set(['page', 'page_size']);

/** The filter of query parameter `name` of `operation`, or undefined when it does not filter. */
export function filterSpecOf(operation: BridgeOperation, name: string): FilterSpec | undefined {
  const parameter = operation.parameters.find((p) => p.in === 'query' && p.name === name);
  if (parameter === undefined || parameter.shapesResponse || NOT_FILTERS.has(name)) return undefined;
  const suffix = SUFFIXES.find((lookup) => name.endsWith(`__${lookup}`));
  const stem = suffix === undefined ? name : name.slice(0, -(suffix.length + 2));
  const declared = parameter.filter ?? {};
  return {
    param: name,
    member: declared.member ?? stem,
    lookup: (declared.lookup as Lookup | undefined) ?? suffix ?? 'exact',
  };
}
