/**
 * Deterministic, realistic records of a data resource for a retrieval (DATA-RETRIEVE): variations of
 * the document's example records that carry the link, the tenant's time, the requested accounts and
 * date range, and validate against the record schema. Each template is compiled once (cached), so a
 * record costs a few closure calls and draws from the seeded random stream only.
 */
import type { JsonObject, JsonValue } from '../../../../openapi/document/json.js';
import { DAY_MS } from '../../core/time.js';
import type { Ids, Random } from '../../ids/seeded-ids.js';
import { dayOfMonthIndex, monthIndexOfDay, parseDay } from './calendar.js';
import { allowedTopLevelValues, compileRecord } from './field-compiler.js';
import type { CompileEnv, Gen, GenState } from './generator-types.js';
import type { RecordTemplate } from './record-templates.js';
import { COUNTRY_CURRENCIES, RESOURCE_HINTS } from './resource-hints.js';

/** What the records must respect: the request and the tenant's virtual now. */
export interface GenerationContext {
  /** The link: `id` goes to `link`, `institution` (its id) to an `institution` field, `country` picks a currency. */
  readonly link: { readonly id: string; readonly institution: string; readonly country?: string };
  /** `collected_at` and `created_at` of every record (ISO date-time): the tenant's virtual now. */
  readonly collectedAt: string;
  /** Records with an `account` field get one of these (otherwise one fresh id for the whole call). */
  readonly accountIds?: readonly string[];
  /** Other reference fields (`investment`, `employment_record`...) by name, like `accountIds`. */
  readonly references?: Readonly<Record<string, readonly string[]>>;
  /**
   * The referenced records themselves, by field and id: a field that nests the whole record (a
   * transaction's `account`) carries a copy of the stored one, so its `id` and members match it.
   */
  readonly referencedRecords?: Readonly<Record<string, ReadonlyMap<string, JsonObject>>>;
  /**
   * Inclusive `YYYY-MM-DD` range for the record's main date (`RecordTemplate.mainDate`). For a `year`
   * main date give whole years (`{from: '2024-01-01', to: '2025-12-31'}` for year_from..year_to).
   */
  readonly dateRange?: { readonly from: string; readonly to: string };
  /**
   * Top-level values the records carry (request filters such as `type`): examples that have them are
   * preferred; another example gets the value where its schema allows it (enum, const or same type).
   */
  readonly match?: Readonly<Record<string, JsonValue>>;
}

/** The randomness of the tenant (only `ids/` makes it, from the seed). */
export interface GeneratorDeps {
  readonly random: Random;
  readonly ids: Ids;
}

type MainDate =
  | { readonly kind: 'day'; readonly day: number }
  | { readonly kind: 'month'; readonly index: number }
  | { readonly kind: 'year'; readonly year: number }
  | { readonly kind: 'none' };

interface Variant {
  readonly example: JsonObject;
  readonly build: Gen;
  /** Per top-level field, the values a `match` may set (enum or const; null: any of the example's type). */
  readonly allowed: ReadonlyMap<string, readonly JsonValue[] | null>;
  readonly main: MainDate;
  /** The example's `collected_at` (null when it has none: the record keeps its dates). */
  readonly collectedMs: number | null;
  readonly weight: number;
}

interface Plan {
  readonly variants: readonly Variant[];
  readonly cycle: boolean;
  readonly logSpread: number;
}

interface DayRange {
  readonly from: number;
  readonly to: number;
}

const plans = new WeakMap<RecordTemplate, Plan>();

/** `count` records of the template's resource for the context; the same deps state gives the same records. */
export function generateRecords(
  template: RecordTemplate,
  context: GenerationContext,
  count: number,
  deps: GeneratorDeps,
): JsonObject[] {
  const plan = planFor(template);
  const variants = matching(plan.variants, context.match);
  const state = createState(template, context, deps);
  const range = dayRange(context.dateRange);
  const matches = Object.entries(context.match ?? {});
  const records: JsonObject[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const variant = plan.cycle
      ? (variants[i % variants.length] as Variant)
      : pickWeighted(variants, deps.random);
    shiftState(state, variant, range);
    state.factor = Math.exp((2 * deps.random.next() - 1) * plan.logSpread);
    const record = variant.build(state) as JsonObject;
    for (const [key, value] of matches) if (accepts(variant, key, value)) record[key] = value;
    records[i] = record;
  }
  return records;
}

function planFor(template: RecordTemplate): Plan {
  const cached = plans.get(template);
  if (cached !== undefined) return cached;
  const hint = RESOURCE_HINTS[template.path] ?? {};
  const env: CompileEnv = {
    definitions: template.definitions,
    references: new Set(template.references),
    keep: new Set(hint.keep ?? []),
    vary: new Set(hint.vary ?? []),
  };
  const variants = template.examples.map((example): Variant => {
    const collectedMs = Date.parse(String(example.collected_at));
    const weightKey = hint.weightBy === undefined ? undefined : String(example[hint.weightBy.field]);
    return {
      example,
      build: compileRecord(template.schema, example, env),
      allowed: allowedTopLevelValues(template.schema, example, env),
      main: mainDateOf(example, template.mainDate),
      collectedMs: Number.isNaN(collectedMs) ? null : collectedMs,
      weight: (weightKey === undefined ? undefined : hint.weightBy?.weights[weightKey]) ?? 1,
    };
  });
  const plan: Plan = { variants, cycle: hint.order === 'cycle', logSpread: Math.log(hint.amountSpread ?? 2) };
  plans.set(template, plan);
  return plan;
}

function mainDateOf(example: JsonObject, field: string | null): MainDate {
  const value = field === null ? undefined : example[field];
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value))
    return { kind: 'day', day: parseDay(value) };
  if (typeof value !== 'number' || field !== 'year') return { kind: 'none' };
  const month = example.month;
  return typeof month === 'number'
    ? { kind: 'month', index: value * 12 + month - 1 }
    : { kind: 'year', year: value };
}

/** Examples whose top-level values equal every `match` value; all of them when none does. */
function matching(variants: readonly Variant[], match: GenerationContext['match']): readonly Variant[] {
  if (match === undefined) return variants;
  const entries = Object.entries(match);
  const found = variants.filter((v) => entries.every(([key, value]) => v.example[key] === value));
  return found.length > 0 ? found : variants;
}

/** Whether a `match` value fits the field of this example's schema (unknown fields are left out). */
function accepts(variant: Variant, key: string, value: JsonValue): boolean {
  const allowed = variant.allowed.get(key);
  if (allowed === undefined) return false;
  if (allowed === null) return typeof value === typeof variant.example[key] && value !== null;
  return allowed.includes(value);
}

function pickWeighted(variants: readonly Variant[], random: Random): Variant {
  let total = 0;
  for (const variant of variants) total += variant.weight;
  let left = random.next() * total;
  for (const variant of variants) {
    left -= variant.weight;
    if (left < 0) return variant;
  }
  return variants[variants.length - 1] as Variant;
}

function dayRange(range: GenerationContext['dateRange']): DayRange | null {
  if (range === undefined) return null;
  const a = parseDay(range.from);
  const b = parseDay(range.to);
  return { from: Math.min(a, b), to: Math.max(a, b) };
}

function createState(template: RecordTemplate, context: GenerationContext, deps: GeneratorDeps): GenState {
  const lists = new Map<string, readonly string[]>();
  const fresh = new Map<string, string>();
  for (const field of template.references) {
    const given =
      field === 'account' ? (context.accountIds ?? context.references?.[field]) : context.references?.[field];
    if (given !== undefined && given.length > 0) lists.set(field, given);
    else fresh.set(field, deps.ids.uuid()); // one parent record for the whole call
  }
  const collectedMs = Date.parse(context.collectedAt);
  if (Number.isNaN(collectedMs)) throw new Error(`collectedAt is not a date-time: ${context.collectedAt}`);
  const collectedDay = Math.floor(collectedMs / DAY_MS);
  return {
    random: deps.random,
    ids: deps.ids,
    days: 0,
    ms: 0,
    months: 0,
    years: 0,
    factor: 1,
    linkId: context.link.id,
    institution: context.link.institution,
    collectedAt: context.collectedAt,
    collectedMs,
    collectedDay,
    collectedMonth: monthIndexOfDay(collectedDay),
    currency: COUNTRY_CURRENCIES[context.link.country ?? ''] ?? null,
    reference: (field) => {
      const list = lists.get(field);
      return list === undefined ? (fresh.get(field) ?? deps.ids.uuid()) : deps.random.pick(list);
    },
    referencedRecord: (field, id) => {
      const record = context.referencedRecords?.[field]?.get(id);
      return record === undefined ? undefined : (structuredClone(record) as JsonObject);
    },
  };
}

/**
 * Moves the record's calendar. The main date lands inside the range (uniformly), or keeps the example's
 * distance to `collected_at`; a record without a main date ends at the range's end (or at now).
 */
function shiftState(s: GenState, v: Variant, range: DayRange | null): void {
  const main = v.main;
  const collectedDay = s.collectedDay;
  const exampleMs = v.collectedMs ?? s.collectedMs;
  const exampleDay = Math.floor(exampleMs / DAY_MS);
  switch (main.kind) {
    case 'day': {
      const target = range ? s.random.int(range.from, range.to) : main.day + collectedDay - exampleDay;
      shiftDays(s, main.day, target);
      break;
    }
    case 'month': {
      const lag = monthIndexOfDay(collectedDay) - monthIndexOfDay(exampleDay);
      const target = range
        ? s.random.int(monthIndexOfDay(range.from), monthIndexOfDay(range.to))
        : main.index + lag;
      shiftMonths(s, main.index, target);
      break;
    }
    case 'year': {
      const lag = yearOfDay(collectedDay) - yearOfDay(exampleDay);
      const target = range ? s.random.int(yearOfDay(range.from), yearOfDay(range.to)) : main.year + lag;
      shiftMonths(s, main.year * 12, target * 12);
      break;
    }
    default:
      shiftDays(s, exampleDay, range ? Math.min(range.to, collectedDay) : collectedDay);
      if (range === null) s.ms = s.collectedMs - exampleMs;
  }
}

function shiftDays(s: GenState, from: number, to: number): void {
  s.days = to - from;
  s.ms = s.days * DAY_MS;
  s.months = monthIndexOfDay(to) - monthIndexOfDay(from);
  s.years = yearOfDay(to) - yearOfDay(from);
}

function shiftMonths(s: GenState, from: number, to: number): void {
  s.months = to - from;
  s.years = Math.floor(to / 12) - Math.floor(from / 12);
  s.days = dayOfMonthIndex(to) - dayOfMonthIndex(from);
  s.ms = s.days * DAY_MS;
}

function yearOfDay(day: number): number {
  return Math.floor(monthIndexOfDay(day) / 12);
}
