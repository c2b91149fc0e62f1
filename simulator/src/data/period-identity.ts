/**
 * DATA-RETRIEVE for records that are one per period (tax returns): a return is the one of its link, kind and period, so a
 * return retrieved again keeps its id, as transactions and invoices do; and what a daily refresh finds
 * new is the latest closed month whose return the link does not have yet, the same record (same id) a
 * retrieval of that month gives.
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import { taxReturnPeriod } from '../core/tax-return-period.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';
import { HISTORY_DAYS } from './buckets.js';
import { dayOfMonthIndex, monthIndexOfDay } from './records/calendar.js';

const periodKey = taxReturnPeriod;

/**
 * Gives each record the id of the link's stored record of the same period, where one is stored under
 * another id (a return stored before the identity held, or imported), and keeps its `created_at`.
 */
export async function keepPeriodIds(
  tenant: TenantRuntime,
  path: string,
  link: string,
  records: JsonObject[],
): Promise<void> {
  if (records.length === 0) return;
  const stored = new Map<string, StoredRecord>();
  for (const record of await tenant.store.list(path, { link })) stored.set(periodKey(record), record);
  for (const record of records) {
    const earlier = stored.get(periodKey(record));
    if (earlier === undefined || earlier.id === record.id) continue;
    record.id = earlier.id;
    if ('created_at' in record) record.created_at = earlier.created_at as string;
  }
}

/**
 * The day ranges of the latest closed months (before today's month, within the institution's history)
 * whose `kind` record the link does not have yet, newest first, at most `count`.
 */
export async function missingMonths(
  tenant: TenantRuntime,
  path: string,
  link: string,
  options: { kind: string; today: number; count: number },
): Promise<{ from: number; to: number }[]> {
  const { kind, today, count } = options;
  const stored = new Set((await tenant.store.list(path, { link })).map(periodKey));
  const months: { from: number; to: number }[] = [];
  const oldest = monthIndexOfDay(today - HISTORY_DAYS);
  for (let month = monthIndexOfDay(today) - 1; month >= oldest && months.length < count; month--) {
    const period = { type: kind, year: Math.floor(month / 12), month: (month % 12) + 1 };
    if (!stored.has(periodKey(period)))
      months.push({ from: dayOfMonthIndex(month), to: dayOfMonthIndex(month + 1) - 1 });
  }
  return months;
}
