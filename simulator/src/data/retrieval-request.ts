/**
 * What a retrieval asks for, read from the validated body (POST `P/`) or from a `RetrievalScope`
 * (`LinkData.fetch`): the date range with its defaults and RANGE-365, the `type`, the parent record,
 * the attachments and `save_data`.
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import type { RetrievalScope } from '../core/link-data.js';
import { err, ok, type Result } from '../core/result.js';
import { clampRange, type DayRange, HISTORY_DAYS, yearOfDay, yearsRange } from './buckets.js';
import { formatDay, parseDay } from './records/calendar.js';
import type { DataResource, TypeStreams } from './resource-catalogue.js';

export interface RetrievalRequest {
  /** Inside the institution's history and not after today; null: no dates, or nothing left to read. */
  readonly range: DayRange | null;
  /** True when the asked range holds no day the institution has (the retrieval returns nothing). */
  readonly empty: boolean;
  readonly type: string | null;
  /** The parent record asked for (`account`, `investment`, `employment_record`), if any. */
  readonly parent: string | null;
  /** Record fields to fill (`xml`, `pdf`). */
  readonly attach: readonly string[];
  /** `save_data: false` returns the records without keeping them (choice). */
  readonly save: boolean;
}

type Body = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A year given as a number or, as the provider sends it, a `YYYY` string. */
const yearOf = (value: unknown) =>
  typeof value === 'number'
    ? value
    : typeof value === 'string' && /^\d{4}$/.test(value)
      ? Number(value)
      : undefined;

/** The retrieval a POST body asks for, or the 400 of its range (RANGE-365, order of the dates). */
export function readRetrieval(
  resource: DataResource,
  body: Body,
  today: number,
): Result<RetrievalRequest, ApiErrors> {
  const range = askedRange(resource, body, today);
  if (!range.ok) return range;
  return ok(finish(resource, range.value, today, body));
}

/** The retrieval `LinkData.fetch` asks for: the scope's dates (unchecked) or the resource's defaults. */
export function scopedRetrieval(
  resource: DataResource,
  scope: RetrievalScope,
  today: number,
): RetrievalRequest {
  const body: Body = {};
  if (resource.dates?.unit === 'day')
    Object.assign(body, { [resource.dates.from]: scope.from, [resource.dates.to]: scope.to });
  if (resource.dates?.unit === 'year') {
    if (scope.from) body[resource.dates.from] = yearOfDay(parseDay(scope.from));
    if (scope.to) body[resource.dates.to] = yearOfDay(parseDay(scope.to));
  }
  if (resource.parent?.field === 'account' && scope.account) body.account = scope.account;
  // RANGE-365 limits requests, not the simulator's own reads (a historical load spans five years).
  const range = askedRange({ ...resource, maxRangeDays: null }, body, today);
  if (!range.ok) return { ...finish(resource, null, today, body), empty: true };
  return finish(resource, range.value, today, body);
}

function finish(resource: DataResource, asked: DayRange | null, today: number, body: Body): RetrievalRequest {
  const range = asked === null ? null : clampRange(asked, today);
  const parentField = resource.parent?.bodyField ?? (resource.parent?.field === 'account' ? 'account' : null);
  return {
    range,
    empty: asked !== null && range === null,
    type: resource.types ? typeOf(resource.types, body[resource.types.field]) : null,
    parent: parentField === null ? null : (text(body[parentField]) ?? null),
    attach: resource.attachments.filter((a) => body[a.bodyField] === true).map((a) => a.recordField),
    save: body.save_data !== false,
  };
}

/**
 * The records' `type` a request's `type` asks for (in any case, spelt as the records have it); a value
 * that is none of them, or none at all, reads the request schema's default (tax returns: any value but
 * `monthly` reads yearly returns, choice), or every value when the schema has none.
 */
function typeOf(types: TypeStreams, value: unknown): string | null {
  const asked = text(value)?.toLowerCase();
  return types.values.find((spelt) => spelt.toLowerCase() === asked) ?? types.fallback;
}

/** The asked range before clamping; a resource without dates reads its default days (balances: today). */
function askedRange(resource: DataResource, body: Body, today: number): Result<DayRange | null, ApiErrors> {
  const dates = resource.dates;
  if (dates === null) {
    return ok(resource.row.bucket === 'once' ? null : { from: today - resource.defaultRangeDays, to: today });
  }
  if (dates.unit === 'year') {
    // Tax returns: `type: monthly` reads the days of `date_from`..`date_to` (the provider's body).
    if (body.type === 'monthly' && text(body.date_from) && text(body.date_to)) {
      return askedRange(
        { ...resource, dates: { from: 'date_from', to: 'date_to', unit: 'day' } },
        body,
        today,
      );
    }
    const to = yearOf(body[dates.to]) ?? yearOfDay(today);
    const from = yearOf(body[dates.from]) ?? yearOfDay(today - HISTORY_DAYS);
    if (from > to)
      return err(rangeError(dates.to, `\`${dates.to}\` ${to} is before \`${dates.from}\` ${from}.`));
    return ok(yearsRange(from, to));
  }
  const toText = text(body[dates.to]);
  const to = toText === undefined ? today : parseDay(toText);
  const fromText = text(body[dates.from]);
  // EXCHANGE-HISTORY, RANGE-365 (choice): a missing start is `x-default-range-days` before the end.
  const from = fromText === undefined ? to - resource.defaultRangeDays : parseDay(fromText);
  if (from > to) {
    return err(
      rangeError(
        dates.to,
        `\`${dates.to}\` ${formatDay(to)} is before \`${dates.from}\` ${formatDay(from)}.`,
      ),
    );
  }
  if (resource.maxRangeDays !== null && to - from > resource.maxRangeDays) {
    // RANGE-365: the document names `date_from` as the field (choice).
    const message = `RANGE-365: at most ${resource.maxRangeDays} days per request; ${formatDay(from)} to ${formatDay(to)} spans ${to - from}.`;
    return err(rangeError(dates.from, message));
  }
  return ok({ from, to });
}

const rangeError = (field: string, message: string) => apiError('invalid_range', { field, message });
