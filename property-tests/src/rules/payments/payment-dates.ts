/**
 * Payment dates and cancel cutoffs (PAY-AUTH-CANCEL-CUTOFF, PAY-AUTH-CHARGE-CANCEL-CUTOFF,
 * PAY-INTENT-CANCEL-CUTOFF). The cutoffs are read from the document's `x-cancel-cutoff` of each cancel
 * operation, never written here; only UTC arithmetic and explicit offsets are used, so the machine's
 * time zone changes nothing.
 */
import fc from 'fast-check';
import type { ApiDocument } from '../../../../openapi/document/api-document.js';
import { isObject } from '../../../../openapi/document/json.js';

/** The spec states payment times in GMT-3 (Limits: cancel cutoffs). */
export const PAYMENTS_UTC_OFFSET = '-03:00';
const DAY_MS = 86_400_000;

/** `x-cancel-cutoff`: `time` at `utcOffset` on the day `daysBefore` the payment date. */
export interface Cutoff {
  time: string;
  utcOffset: string;
  daysBefore: number;
}

/** The operation's `x-cancel-cutoff`, or undefined when the document gives none. */
export function cutoffOf(document: ApiDocument, operationId: string): Cutoff | undefined {
  const raw = document.operation(operationId)?.raw['x-cancel-cutoff'];
  if (!isObject(raw)) return undefined;
  const { time, utc_offset: utcOffset, days_before: daysBefore } = raw;
  if (typeof time !== 'string' || typeof utcOffset !== 'string' || typeof daysBefore !== 'number') {
    return undefined;
  }
  return { time, utcOffset, daysBefore };
}

/** `YYYY-MM-DD` moved by `days`, across month and year ends. */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The instant of `time` on `date` at `offset`. */
export const instantAt = (date: string, time: string, offset = PAYMENTS_UTC_OFFSET) =>
  Date.parse(`${date}T${time}${offset}`);

/** The calendar date at `instant` in GMT-3 (the payments' "today"). */
export const paymentsDate = (instant: number) => new Date(instant - 3 * 3_600_000).toISOString().slice(0, 10);

/** The cutoff instant of a payment due on `date`. */
export const cutoffInstant = (date: string, cutoff: Cutoff) =>
  instantAt(addDays(date, -cutoff.daysBefore), cutoff.time, cutoff.utcOffset);

/** How an instant reads in messages: `2026-11-30 21:59:59 GMT-3`. */
export const describeGmt3 = (instant: number) =>
  `${new Date(instant - 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')} GMT-3`;

export const isoOf = (instant: number) => new Date(instant).toISOString();

/** The first day of a month at least `minDays` after `today`: its eve is a month end. */
export function monthStartAfter(today: string, minDays: number): string {
  const earliest = addDays(today, minDays);
  return earliest.endsWith('-01') ? earliest : `${addDays(`${earliest.slice(0, 7)}-28`, 4).slice(0, 7)}-01`;
}

/** A payment date and the seconds from its cutoff at which the cancel is sent (negative: before). */
export interface CutoffInput {
  date: string;
  offsetSeconds: number;
}

/** Days ahead of today a generated payment date falls: room for a creation day before the cutoff. */
const MIN_DAYS_AHEAD = 4;

/**
 * Payment dates ahead of `today`, and offsets fast-check picks around the cutoff: mostly the seconds
 * next to it, sometimes up to a day before or two hours after.
 */
export function cutoffInputArbitrary(today: string): fc.Arbitrary<CutoffInput> {
  return fc.record({
    date: fc.integer({ min: MIN_DAYS_AHEAD, max: 120 }).map((days) => addDays(today, days)),
    offsetSeconds: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: -90, max: 90 }) },
      { weight: 1, arbitrary: fc.integer({ min: -86_399, max: 7_200 }) },
    ),
  });
}

/**
 * The exact seconds (21:59:59 vs 22:00:00 GMT-3, 23:58:59 vs 23:59:00 GMT-3, whichever the document's
 * cutoff is), for a date next week and for a month start (its cutoff falls on a month end).
 */
export function cutoffExamples(today: string): CutoffInput[] {
  const dates = [addDays(today, MIN_DAYS_AHEAD + 3), monthStartAfter(today, MIN_DAYS_AHEAD)];
  return dates.flatMap((date) => [
    { date, offsetSeconds: -1 },
    { date, offsetSeconds: 0 },
  ]);
}

/** When a run creates what it cancels: noon GMT-3, two days before the cutoff's day. */
export const creationInstant = (date: string, cutoff: Cutoff) =>
  instantAt(addDays(date, -cutoff.daysBefore - 2), '12:00:00');

/** By then a charge due on `date` has been processed: noon GMT-3 of the next day. */
export const settledInstant = (date: string) => instantAt(addDays(date, 1), '12:00:00');
