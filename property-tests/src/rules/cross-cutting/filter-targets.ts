/**
 * The filters FILTER-IN and FILTER-RANGE exercise: every `<field>__in` / `<field>__range` parameter a
 * list declares, with the values its records hold now (so generated filters keep some records and drop
 * others). Semantics shared with the rules: a field holding an object is compared by its `id`, a field
 * holding an array matches when one element does, ranges compare the date part of dates, and a `__`
 * inside the field walks into nested objects (`balance__current`) unless the record has that member;
 * a parameter's `x-filter` member, where the document gives one, is the field it compares.
 */
import fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { isSkip, type SuiteContext } from '../rule.js';
import { type ListSource, listSources } from './list-sources.js';

export type FilterKind = 'in' | 'date-range' | 'number-range';

export interface FilterTarget {
  source: ListSource;
  param: string;
  field: string;
  kind: FilterKind;
  /** Values the field holds in the list now (text), for generating filters that keep records. */
  known: string[];
}

const MAX_KNOWN = 30;

/** The comparable texts of a field's value: an object by its id, an array by its elements. */
export function fieldTexts(value: JsonValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(fieldTexts);
  if (isObject(value)) return 'id' in value ? fieldTexts(value.id) : [];
  return [String(value)];
}

/**
 * The record's value of `field`: its own member of that name, else the `__`-separated path into it; a
 * path through an array reads every element and gives the list of their values (matched as any).
 */
export function fieldAt(record: JsonObject, field: string): JsonValue | undefined {
  if (field in record) return record[field];
  return walk(record, field.split('__'));
}

function walk(value: JsonValue | undefined, steps: readonly string[]): JsonValue | undefined {
  if (steps.length === 0) return value;
  if (Array.isArray(value)) return value.flatMap((item) => [walk(item, steps) ?? []].flat() as JsonValue[]);
  if (!isObject(value)) return undefined;
  const [step = '', ...rest] = steps;
  return walk(value[step], rest);
}

/** `in`, or the range kind its schema's pattern says (dates `YYYY-MM-DD`, else numbers). */
export function kindOf(suite: SuiteContext, param: string, schema: JsonValue): FilterKind {
  if (param.endsWith('__in')) return 'in';
  const resolved = suite.document.resolve(schema);
  const pattern = isObject(resolved) && typeof resolved.pattern === 'string' ? resolved.pattern : '';
  return pattern.includes('\\d{4}-') ? 'date-range' : 'number-range';
}

function knownValues(records: JsonObject[], field: string, kind: FilterKind): string[] {
  const texts = records.flatMap((record) => fieldTexts(fieldAt(record, field)));
  const values = kind === 'date-range' ? texts.map((text) => text.slice(0, 10)) : texts;
  return [...new Set(values)].slice(0, MAX_KNOWN);
}

/**
 * A target, chosen in proportion to the distinct values its records hold: a filter over one value (a
 * single link's `link__in`, one currency) cannot tell a right answer from most wrong ones, and the
 * provider's many filters would otherwise leave the informative ones rarely drawn in a short run.
 */
export function weightedTarget(targets: FilterTarget[]): fc.Arbitrary<FilterTarget> {
  return fc.oneof(
    ...targets.map((target) => ({
      weight: Math.max(1, target.known.length),
      arbitrary: fc.constant(target),
    })),
  );
}

/** Every filter of `suffix` on the lists the target implements. */
export async function filterTargets(
  suite: SuiteContext,
  note: (text: string) => void,
  suffix: '__in' | '__range',
): Promise<FilterTarget[]> {
  const targets: FilterTarget[] = [];
  for (const source of await listSources(suite, note)) {
    const operation = suite.document.operation(source.operationId)!;
    // A parameter whose `x-filter` names another lookup (the provider's `account_in`) is not of this kind.
    const lookup = suffix.slice(2);
    const params = operation.parameters.filter(
      (p) =>
        p.in === 'query' &&
        p.name.endsWith(suffix) &&
        (p.filter?.lookup === undefined || p.filter.lookup === lookup),
    );
    if (params.length === 0) continue;
    const records = await suite.fixtures.listAll(source.path, source.base, source.headers);
    if (isSkip(records)) {
      note(`${source.path} left out: ${records.skip}`);
      continue;
    }
    for (const param of params) {
      // `x-filter` names the member where the provider's name is not its path (`country_code__in`).
      const field = param.filter?.member ?? param.name.slice(0, -suffix.length);
      const kind = kindOf(suite, param.name, param.schema);
      targets.push({ source, param: param.name, field, kind, known: knownValues(records, field, kind) });
    }
  }
  return targets;
}
