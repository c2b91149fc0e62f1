/**
 * Payment dates and cancel cutoffs in GMT-3 (PAY-AUTH-CANCEL-CUTOFF, PAY-AUTH-CHARGE-CANCEL-CUTOFF,
 * PAY-INTENT-CANCEL-CUTOFF), from the tenant's clock. Only UTC arithmetic and explicit offsets are
 * used, so the machine's time zone (TZ) never changes an answer.
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { CancelCutoff } from '../core/rule-policy.js';
import type { TenantRuntime } from '../core/tenant.js';
import { DAY_MS, HOUR_MS } from '../core/time.js';

/** The rules are stated in GMT-3 (Brasília time, without daylight saving since 2019). */
export const PAYMENTS_UTC_OFFSET = '-03:00';
const OFFSET_MS = -3 * HOUR_MS;
/**
 * (choice) Charges are processed at 06:00:00 GMT-3 of their date (09:00 UTC, as in the document's
 * examples): after both cutoffs of the day before.
 */
export const CHARGE_PROCESSING_TIME = '06:00:00';

/**
 * The cancel cutoff of an operation in the tenant's policy (the document's `x-cancel-cutoff`: `time`
 * in GMT-3 on the day `days_before` the payment date); undefined when the operation has none.
 */
export const cancelCutoffOf = (tenant: TenantRuntime, operation: ApiOperation): CancelCutoff | undefined =>
  tenant.policy.payments.cancelCutoffs[operation.operationId];

/** `YYYY-MM-DD` moved by `days` (negative: earlier), across month and year ends. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant of `time` on `date` at the UTC offset (GMT-3 by default). */
export function instantAt(date: string, time: string, utcOffset = PAYMENTS_UTC_OFFSET): number {
  return Date.parse(`${date}T${time}${utcOffset}`);
}

/** The cutoff instant for a payment due on `date`. */
export function cutoffInstant(date: string, cutoff: CancelCutoff): number {
  return instantAt(addDays(date, -cutoff.daysBefore), cutoff.time, cutoff.utcOffset);
}

/** True from the cutoff instant on (at 22:00:00 or 23:59:00 exactly it has passed); never without a cutoff. */
export function cutoffPassed(now: number, date: string, cutoff: CancelCutoff | undefined): boolean {
  return cutoff !== undefined && now >= cutoffInstant(date, cutoff);
}

/** The calendar date in GMT-3 at the instant `now` ("today" for payment dates). */
export function paymentsDate(now: number): string {
  return new Date(now + OFFSET_MS).toISOString().slice(0, 10);
}

/** When a charge due on `date` is processed. */
export function processingInstant(date: string): number {
  return instantAt(date, CHARGE_PROCESSING_TIME);
}

/** How a cutoff reads in messages: `2026-11-09 22:00:00 GMT-3`. */
export function describeCutoff(date: string, cutoff: CancelCutoff): string {
  return `${addDays(date, -cutoff.daysBefore)} ${cutoff.time} GMT${Number(cutoff.utcOffset.slice(0, 3))}`;
}
