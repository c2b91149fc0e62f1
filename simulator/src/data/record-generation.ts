/**
 * DATA-RETRIEVE: the records an institution holds for a link, generated from the document's examples
 * (`generateRecords`). Every bucket (period x parent x `type` value) draws from its own streams seeded
 * with the link id and the collection path, so the same link always holds the same records.
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import { createIds, createRandom, type Random } from '../ids/seeded-ids.js';
import { type Bucket, bucketsOf, type DayRange } from './buckets.js';
import { formatDay } from './records/calendar.js';
import { type GenerationContext, generateRecords } from './records/record-generator.js';
import type { DataResource } from './resource-catalogue.js';
import type { BucketKind } from './resource-table.js';

/** What the generator needs of the link: `institution` is its name, `country` picks the currency. */
export interface LinkContext {
  readonly id: string;
  readonly institution: string;
  readonly country?: string;
}

export interface GenerationPlan {
  readonly link: LinkContext;
  /** The tenant's now (ISO date-time): every record's `collected_at` and `created_at`. */
  readonly collectedAt: string;
  /** The tenant's today, as a day number. */
  readonly today: number;
  /** Inclusive range of the retrieval (already inside the institution's history); null: no dates. */
  readonly range: DayRange | null;
  /** One value of the resource's `type` streams, or null for every value. */
  readonly type: string | null;
  /** Parent record ids (accounts...); `[null]` for a resource without parents. */
  readonly parents: readonly (string | null)[];
  /** The parent records themselves, where the resource nests them (a transaction's `account`). */
  readonly parentRecords?: readonly JsonObject[];
}

/** The seeded streams of one key: the same key gives the same records. */
export function streamsOf(key: string): { random: Random; ids: ReturnType<typeof createIds> } {
  return { random: createRandom(key), ids: createIds(createRandom(`${key}#ids`)) };
}

/** `perBucket` on average: the whole part, and one more with the probability of the fraction. */
function countOf(perBucket: number, random: Random): number {
  const whole = Math.floor(perBucket);
  return whole + (random.next() < perBucket - whole ? 1 : 0);
}

/** A year (and month) main date is a period: only closed periods exist (see `bucketsOf`). */
const isPeriodic = (resource: DataResource) => resource.template.mainDate === 'year';

function kindOf(resource: DataResource, type: string | null): BucketKind {
  return (type === null ? undefined : resource.row.bucketByType?.[type]) ?? resource.row.bucket;
}

function typesOf(resource: DataResource, type: string | null): (string | null)[] {
  if (resource.types === null) return [null];
  return type === null ? [...resource.types.values] : [type];
}

function contextOf(
  resource: DataResource,
  plan: GenerationPlan,
  parents: readonly string[],
  dates: DayRange | null,
): GenerationContext {
  const field = resource.parent?.field;
  return {
    link: plan.link,
    collectedAt: plan.collectedAt,
    ...(field !== undefined && parents.length > 0 && { references: { [field]: parents } }),
    ...(field === 'account' && parents.length > 0 && { accountIds: parents }),
    ...(field !== undefined &&
      plan.parentRecords !== undefined && {
        referencedRecords: { [field]: new Map(plan.parentRecords.map((r) => [String(r.id), r])) },
      }),
    ...(dates !== null && { dateRange: { from: formatDay(dates.from), to: formatDay(dates.to) } }),
  };
}

function generateBucket(
  resource: DataResource,
  plan: GenerationPlan,
  bucket: Bucket,
  type: string | null,
  parent: string | null,
): JsonObject[] {
  const key = `${plan.link.id}${resource.path}|${parent ?? ''}|${type ?? ''}|${bucket.key}`;
  const deps = streamsOf(key);
  const count = countOf(resource.row.perBucket, deps.random);
  if (count === 0) return [];
  const base = contextOf(resource, plan, parent === null ? [] : [parent], bucket.dates);
  const types = resource.types;
  const match = type !== null && types?.mode === 'match' ? { match: { [types.field]: type } } : {};
  const records = generateRecords(resource.template, { ...base, ...match }, count, deps);
  if (type !== null && types?.mode === 'set') for (const record of records) record[types.field] = type;
  return records;
}

/** The records of a retrieval, oldest period first; periods that overlap the range keep only what is inside it. */
export function generateForPlan(resource: DataResource, plan: GenerationPlan): JsonObject[] {
  const periods = typesOf(resource, plan.type).flatMap((type) =>
    bucketsOf(kindOf(resource, type), plan.range, plan.today, isPeriodic(resource)).map((bucket) => ({
      type,
      bucket,
    })),
  );
  periods.sort((a, b) => (a.bucket.dates?.from ?? 0) - (b.bucket.dates?.from ?? 0));
  const records: JsonObject[] = [];
  for (const { type, bucket } of periods) {
    for (const parent of plan.parents) records.push(...generateBucket(resource, plan, bucket, type, parent));
  }
  return keepInRange(resource, records, plan.range);
}

function keepInRange(resource: DataResource, records: JsonObject[], range: DayRange | null): JsonObject[] {
  const main = resource.template.mainDate;
  if (range === null || main === null || isPeriodic(resource) || resource.row.bucket === 'once')
    return records;
  const from = formatDay(range.from);
  const to = formatDay(range.to);
  return records.filter((record) => {
    const day = String(record[main]).slice(0, 10);
    return day >= from && day <= to;
  });
}

/**
 * `count` new records dated today (a daily refresh), spread over the parents; `key` seeds them. The
 * records mix the examples' `type` values (new invoices of both directions).
 */
export function generateNew(
  resource: DataResource,
  plan: GenerationPlan,
  count: number,
  key: string,
): JsonObject[] {
  const parents = plan.parents.filter((parent): parent is string => parent !== null);
  const dated = resource.template.mainDate !== null && resource.row.bucket !== 'once';
  const context = contextOf(resource, plan, parents, dated ? { from: plan.today, to: plan.today } : null);
  return generateRecords(resource.template, context, count, streamsOf(key));
}
