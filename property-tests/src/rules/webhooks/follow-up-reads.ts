/**
 * WEBHOOK-FOLLOW-UP: the follow-up read of each event of the catalogue ("Follow-up reads after an
 * event"), and what it must show: counts equal to the event's totals, dates and years that bound the
 * records (a range from the first to the last holds them all, and each end holds one), ids that
 * resolve with `id__in` (updated) or no longer do (deleted), cancelled invoices that resolve by id.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { INVOICES, TRANSACTIONS } from '../../../../openapi/http/api-paths.js';
import type { HttpSession } from '../../http/http-client.js';
import { pageOf } from '../cross-cutting/read-list.js';
import { listByLink } from '../data/records.js';

export interface FollowUpContext {
  http: HttpSession;
  link: string;
  /** `created_at__range` of new records: the previous notification day and the latest (YYYY-MM-DD). */
  since: string;
  today: string;
  /** Transactions the same refresh removed (a first refresh counts them among the new ones). */
  deletedTransactions: number;
}

type FollowUp = (data: JsonObject, context: FollowUpContext) => Promise<string[]>;

const num = (value: JsonValue | undefined) => (typeof value === 'number' ? value : Number.NaN);
const ids = (value: JsonValue | undefined) => (Array.isArray(value) ? value.map(String) : []);
const query = (filter: Record<string, string>) => new URLSearchParams(filter).toString();

/** `count` of GET `path?link=&<filter>`. */
async function countOf(context: FollowUpContext, path: string, filter: Record<string, string> = {}) {
  const search = { link: context.link, ...filter };
  const answer = await context.http.request({
    method: 'GET',
    url: path,
    query: { ...search, page_size: '1' },
  });
  return pageOf(answer, `GET ${path}?${query(search)}`).count;
}

/** The event's `value` against the follow-up's count: equal (`=`) or at most (`<=`, new records). */
async function compare(
  context: FollowUpContext,
  [what, value]: [string, JsonValue | undefined],
  [path, filter]: [string, Record<string, string>],
  relation: '=' | '<=' = '=',
): Promise<string[]> {
  const counted = await countOf(context, path, filter);
  const expected = num(value);
  if (relation === '=' ? counted === expected : expected <= counted) return [];
  const read = `GET ${path}?${query({ link: context.link, ...filter })}`;
  return [`${what} is ${JSON.stringify(value)}; ${read} counts ${counted}`];
}

/** A first..last range holds `total` records, and each end holds at least one. */
async function bounds(
  context: FollowUpContext,
  path: string,
  [field, first, last]: [string, JsonValue | undefined, JsonValue | undefined],
  [total, filter]: [JsonValue | undefined, Record<string, string>],
): Promise<string[]> {
  if (num(total) === 0 || first === null || last === null) return [];
  const range = `${field}__range`;
  const problems = await compare(
    context,
    [`the total of records with ${field} ${first}..${last}`, total],
    [path, { ...filter, [range]: `${first},${last}` }],
  );
  for (const [end, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    const counted = await countOf(context, path, { ...filter, [range]: `${value},${value}` });
    if (counted === 0) problems.push(`no record has ${field} ${value}, the ${end} the event names`);
  }
  return problems;
}

async function transactionsHistorical(data: JsonObject, context: FollowUpContext): Promise<string[]> {
  return [
    ...(await compare(context, ['total_transactions', data.total_transactions], [TRANSACTIONS, {}])),
    ...(await compare(
      context,
      ['total_inflow_transactions', data.total_inflow_transactions],
      [TRANSACTIONS, { type: 'INFLOW' }],
    )),
    ...(await compare(
      context,
      ['total_outflow_transactions', data.total_outflow_transactions],
      [TRANSACTIONS, { type: 'OUTFLOW' }],
    )),
    ...(await bounds(
      context,
      TRANSACTIONS,
      ['value_date', data.first_transaction_date, data.last_transaction_date],
      [data.total_transactions, {}],
    )),
  ];
}

const invoicesHistorical =
  (type: 'INFLOW' | 'OUTFLOW'): FollowUp =>
  async (data, context) => [
    ...(await compare(context, ['total_invoices', data.total_invoices], [INVOICES, { type }])),
    ...(await bounds(
      context,
      INVOICES,
      ['invoice_date', data.first_invoice_date, data.last_invoice_date],
      [data.total_invoices, { type }],
    )),
  ];

async function taxStatusHistorical(data: JsonObject, context: FollowUpContext): Promise<string[]> {
  const problems = await compare(
    context,
    ['total_tax_status', data.total_tax_status],
    ['/api/tax-status/', {}],
  );
  const records = await listByLink(context.http, '/api/tax-status/', context.link);
  // The registry data of the record (`tax_payer_information`) holds the last status change.
  const dates = records
    .map((r) =>
      isObject(r.tax_payer_information) ? r.tax_payer_information.last_status_change_date : undefined,
    )
    .filter((d): d is string => typeof d === 'string');
  const latest =
    dates
      .map((d) => d.slice(0, 10))
      .sort()
      .at(-1) ?? null;
  if (records.length > 0 && data.last_status_change_date !== latest) {
    problems.push(
      `last_status_change_date is ${JSON.stringify(data.last_status_change_date)}; the latest listed is ${latest}`,
    );
  }
  return problems;
}

async function transactionsUpdated(data: JsonObject, context: FollowUpContext): Promise<string[]> {
  const wanted = ids(data.updated_transactions);
  const found = await listByLink(context.http, TRANSACTIONS, context.link, { id__in: wanted.join(',') });
  const got = found.map((record) => String(record.id));
  const missing = wanted.filter((id) => !got.includes(id));
  const problems =
    missing.length > 0 ? [`updated transactions ${missing.join(', ')} do not resolve with id__in`] : [];
  if (num(data.count) !== wanted.length)
    problems.push(`count ${data.count} for ${wanted.length} updated ids`);
  return problems;
}

async function transactionsDeleted(data: JsonObject, context: FollowUpContext): Promise<string[]> {
  const gone = ids(data.transactions_deleted);
  const found = await listByLink(context.http, TRANSACTIONS, context.link, { id__in: gone.join(',') });
  const problems =
    found.length > 0 ? [`deleted transactions ${found.map((r) => r.id).join(', ')} are still listed`] : [];
  if (num(data.count) !== gone.length) problems.push(`count ${data.count} for ${gone.length} deleted ids`);
  return problems;
}

async function invoicesCancelled(data: JsonObject, context: FollowUpContext): Promise<string[]> {
  const problems: string[] = [];
  for (const id of ids(data.cancelled_invoices)) {
    const answer = await context.http.request({
      method: 'GET',
      url: `${INVOICES}${encodeURIComponent(id)}/`,
    });
    if (answer.status !== 200 || !isObject(answer.json) || answer.json.id !== id) {
      problems.push(`GET ${INVOICES}${id}/ answered ${answer.status}, not the cancelled invoice`);
    }
  }
  return problems;
}

/** New records since the previous notification day (a first refresh also counts what it removed). */
const created = (context: FollowUpContext) => ({ created_at__range: `${context.since},${context.today}` });

async function newTransactions(data: JsonObject, context: FollowUpContext): Promise<string[]> {
  const fresh = num(data.new_transactions) - context.deletedTransactions;
  return compare(
    context,
    [`new_transactions (${context.deletedTransactions} since removed)`, fresh],
    [TRANSACTIONS, created(context)],
    '<=',
  );
}

const atMost =
  (path: string, field: string, filter: Record<string, string> = {}): FollowUp =>
  (data, context) =>
    compare(context, [field, data[field]], [path, { ...filter, ...created(context) }], '<=');

/** The follow-up of each event, by `<webhook_type> <webhook_code>`. */
export const FOLLOW_UPS: Record<string, FollowUp> = {
  'ACCOUNTS historical_update': (data, context) =>
    compare(context, ['total_accounts', data.total_accounts], ['/api/accounts/', {}]),
  'OWNERS historical_update': (data, context) =>
    compare(context, ['total_owners', data.total_owners], ['/api/owners/', {}]),
  'TRANSACTIONS historical_update': transactionsHistorical,
  'INVOICES historical_inflow_update': invoicesHistorical('INFLOW'),
  'INVOICES historical_outflow_update': invoicesHistorical('OUTFLOW'),
  'TAX_RETURNS historical_update': async (data, context) => [
    ...(await compare(context, ['total_tax_returns', data.total_tax_returns], ['/api/tax-returns/', {}])),
    ...(await bounds(
      context,
      '/api/tax-returns/',
      ['year', data.first_tax_return_year, data.last_tax_return_year],
      [data.total_tax_returns, {}],
    )),
  ],
  'TAX_STATUS historical_update': taxStatusHistorical,
  'TRANSACTIONS transactions_updated': transactionsUpdated,
  'TRANSACTIONS transactions_deleted': transactionsDeleted,
  'INVOICES invoices_cancelled': invoicesCancelled,
  'TRANSACTIONS new_transactions_available': newTransactions,
  'ACCOUNTS new_accounts_available': atMost('/api/accounts/', 'new_accounts'),
  'OWNERS new_owners_available': atMost('/api/owners/', 'new_owners'),
  'INVOICES new_invoices_available': async (data, context) => [
    ...(await atMost(INVOICES, 'new_inflow_invoices', { type: 'INFLOW' })(data, context)),
    ...(await atMost(INVOICES, 'new_outflow_invoices', { type: 'OUTFLOW' })(data, context)),
  ],
  'TAX_RETURNS new_tax_returns_available': atMost('/api/tax-returns/', 'new_tax_returns'),
};
