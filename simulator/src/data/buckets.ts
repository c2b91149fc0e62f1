/**
 * Calendar periods ("buckets") a retrieval's records are generated in. Each bucket has its own seeded
 * stream, so a period holds the same records whatever range asked for it: retrieving January then
 * February gives the records of retrieving both at once (determinism per link, DATA-RETRIEVE).
 */
import { dayFromCivil, dayOfMonthIndex, formatDay, monthIndexOfDay } from './records/calendar.js';
import type { BucketKind } from './resource-table.js';

/** Inclusive range of day numbers (days since 1970-01-01). */
export interface DayRange {
  readonly from: number;
  readonly to: number;
}

export interface Bucket {
  /** Part of the seed of the bucket's streams. */
  readonly key: string;
  /** Dates the bucket's records fall in; null: the records keep their example's distance to now. */
  readonly dates: DayRange | null;
}

/**
 * How far back an institution's history goes (choice: five years, the spec's historical load of fiscal
 * links); older requested dates return what is available.
 */
export const HISTORY_DAYS = 5 * 365 + 1;

/** The range inside the institution's history and not after today; null when nothing is left. */
export function clampRange(range: DayRange, today: number): DayRange | null {
  const from = Math.max(range.from, today - HISTORY_DAYS);
  const to = Math.min(range.to, today);
  return from <= to ? { from, to } : null;
}

/** Inclusive range of whole years, as days. */
export const yearsRange = (fromYear: number, toYear: number): DayRange => ({
  from: dayFromCivil(fromYear, 1, 1),
  to: dayFromCivil(toYear, 12, 31),
});

export const yearOfDay = (day: number) => Math.floor(monthIndexOfDay(day) / 12);

/**
 * The buckets of a range. `closedOnly` keeps only periods that ended before today (a yearly or monthly
 * return exists once its period is over, choice); otherwise a period that overlaps the range counts and
 * the caller keeps the records dated inside the range.
 */
export function bucketsOf(
  kind: BucketKind,
  range: DayRange | null,
  today: number,
  closedOnly: boolean,
): Bucket[] {
  if (kind === 'once') return [{ key: 'once', dates: range }];
  const span = range ?? { from: today, to: today };
  if (kind === 'day') {
    const buckets: Bucket[] = [];
    for (let day = span.from; day <= span.to; day++)
      buckets.push({ key: formatDay(day), dates: { from: day, to: day } });
    return buckets;
  }
  return kind === 'month' ? monthBuckets(span, today, closedOnly) : yearBuckets(span, today, closedOnly);
}

function monthBuckets(span: DayRange, today: number, closedOnly: boolean): Bucket[] {
  const buckets: Bucket[] = [];
  for (let month = monthIndexOfDay(span.from); month <= monthIndexOfDay(span.to); month++) {
    const dates = { from: dayOfMonthIndex(month), to: dayOfMonthIndex(month + 1) - 1 };
    if (!closedOnly || dates.to < today) buckets.push({ key: `m${month}`, dates });
  }
  return buckets;
}

function yearBuckets(span: DayRange, today: number, closedOnly: boolean): Bucket[] {
  const buckets: Bucket[] = [];
  for (let year = yearOfDay(span.from); year <= yearOfDay(span.to); year++) {
    const dates = yearsRange(year, year);
    if (!closedOnly || dates.to < today) buckets.push({ key: `y${year}`, dates });
  }
  return buckets;
}
