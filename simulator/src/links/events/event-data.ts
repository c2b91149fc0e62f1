/**
 * The catalogue's `data` of each data event, computed from the link's stored records, so every count,
 * date and id matches what the follow-up reads return (WEBHOOK-FOLLOW-UP).
 */

import type { RaisedEvent } from '../../core/events.js';
import type { StoredRecord } from '../../store/store.js';

type Data = Record<string, unknown>;

/** The smallest and largest value of a field (dates as `YYYY-MM-DD`, years as numbers), or nulls. */
function span<T extends string | number>(
  records: readonly StoredRecord[],
  read: (record: StoredRecord) => T | undefined,
): { first: T | null; last: T | null } {
  let first: T | null = null;
  let last: T | null = null;
  for (const record of records) {
    const value = read(record);
    if (value === undefined) continue;
    if (first === null || value < first) first = value;
    if (last === null || value > last) last = value;
  }
  return { first, last };
}

const day = (field: string) => (record: StoredRecord) =>
  typeof record[field] === 'string' ? (record[field] as string).slice(0, 10) : undefined;
/** A tax status's last status change, in the registry data the SAT gives (`tax_payer_information`). */
const statusChangeDay = (record: StoredRecord) => {
  const registry = record.tax_payer_information as { last_status_change_date?: unknown } | null | undefined;
  const date = registry?.last_status_change_date;
  return typeof date === 'string' ? date.slice(0, 10) : undefined;
};
const year = (record: StoredRecord) => (typeof record.year === 'number' ? record.year : undefined);
const ofType = (records: readonly StoredRecord[], type: string) => records.filter((r) => r.type === type);

/** The refresh's `request_id` rides in `data` (LINK-REFRESH-202, choice of webhooks.yaml). */
const withRequest = (data: Data, requestId: string | undefined): Data =>
  requestId === undefined ? data : { ...data, request_id: requestId };

const event = (webhook_type: string, webhook_code: string, link: string, data: Data): RaisedEvent => ({
  webhook_type,
  webhook_code,
  link_id: link,
  data,
});

/** WEBHOOK-HISTORICAL: the `historical_update` events of one resource's stored records. */
export const historicalEvents: Record<
  string,
  (link: string, records: readonly StoredRecord[], requestId?: string) => RaisedEvent[]
> = {
  ACCOUNTS: (link, records, requestId) => [
    event('ACCOUNTS', 'historical_update', link, withRequest({ total_accounts: records.length }, requestId)),
  ],
  OWNERS: (link, records, requestId) => [
    event('OWNERS', 'historical_update', link, withRequest({ total_owners: records.length }, requestId)),
  ],
  TRANSACTIONS: (link, records, requestId) => {
    const { first, last } = span(records, day('value_date'));
    const data = {
      total_transactions: records.length,
      total_inflow_transactions: ofType(records, 'INFLOW').length,
      total_outflow_transactions: ofType(records, 'OUTFLOW').length,
      first_transaction_date: first,
      last_transaction_date: last,
    };
    return [event('TRANSACTIONS', 'historical_update', link, withRequest(data, requestId))];
  },
  INVOICES: (link, records, requestId) =>
    (['INFLOW', 'OUTFLOW'] as const).map((type) => {
      const invoices = ofType(records, type);
      const { first, last } = span(invoices, day('invoice_date'));
      const data = { total_invoices: invoices.length, first_invoice_date: first, last_invoice_date: last };
      const code = `historical_${type.toLowerCase()}_update`;
      return event('INVOICES', code, link, withRequest(data, requestId));
    }),
  TAX_RETURNS: (link, records, requestId) => {
    const { first, last } = span(records, year);
    const data = {
      total_tax_returns: records.length,
      first_tax_return_year: first,
      last_tax_return_year: last,
    };
    return [event('TAX_RETURNS', 'historical_update', link, withRequest(data, requestId))];
  },
  TAX_STATUS: (link, records, requestId) => {
    const { last } = span(records, statusChangeDay);
    const data = { total_tax_status: records.length, last_status_change_date: last };
    return [event('TAX_STATUS', 'historical_update', link, withRequest(data, requestId))];
  },
};

/** WEBHOOK-DAILY: the `new_*_available` event of one resource's new records (none when there are none). */
export const newRecordsEvents: Record<
  string,
  (link: string, records: readonly StoredRecord[]) => RaisedEvent[]
> = {
  ACCOUNTS: (link, records) =>
    records.length
      ? [event('ACCOUNTS', 'new_accounts_available', link, { new_accounts: records.length })]
      : [],
  OWNERS: (link, records) =>
    records.length ? [event('OWNERS', 'new_owners_available', link, { new_owners: records.length })] : [],
  TRANSACTIONS: (link, records) =>
    records.length
      ? [event('TRANSACTIONS', 'new_transactions_available', link, { new_transactions: records.length })]
      : [],
  INVOICES: (link, records) => {
    if (!records.length) return [];
    const data = {
      new_invoices: records.length,
      new_inflow_invoices: ofType(records, 'INFLOW').length,
      new_outflow_invoices: ofType(records, 'OUTFLOW').length,
    };
    return [event('INVOICES', 'new_invoices_available', link, data)];
  },
  TAX_RETURNS: (link, records) =>
    records.length
      ? [event('TAX_RETURNS', 'new_tax_returns_available', link, { new_tax_returns: records.length })]
      : [],
};

/** WEBHOOK-DAILY, WEBHOOK-FOLLOW-UP: ids that resolve with `id__in` (updated) or are gone (deleted). */
export const transactionsUpdated = (link: string, ids: readonly string[]): RaisedEvent =>
  event('TRANSACTIONS', 'transactions_updated', link, { count: ids.length, updated_transactions: [...ids] });

export const transactionsDeleted = (link: string, ids: readonly string[]): RaisedEvent =>
  event('TRANSACTIONS', 'transactions_deleted', link, { count: ids.length, transactions_deleted: [...ids] });

/** INVOICE-CANCELLED: ids whose `GET /api/invoices/{id}/` now shows `status: Cancelado`. */
export const invoicesCancelled = (link: string, ids: readonly string[]): RaisedEvent =>
  event('INVOICES', 'invoices_cancelled', link, { cancelled_invoices: [...ids] });
