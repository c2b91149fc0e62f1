/**
 * WEBHOOK-DAILY: what a daily refresh did to a link's records, read from its lists before and after
 * (new records, changed and removed transactions, invoices that became cancelled), and what the
 * refresh's events say about it. Each function returns the problems it finds, as sentences.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import { listByLink } from '../data/records.js';
import { INVOICE_STATUS } from '../invoice-status.js';
import { canonicalJson } from '../same-value.js';
import type { LinkKind } from './event-catalogue.js';
import { eventKey } from './webhook-schemas.js';

/** INVOICE-CANCELLED: the SAT's word of a cancelled invoice. */
const CANCELLED = INVOICE_STATUS.cancelled;

/** A `new_*_available` event of the catalogue and the list its records appear in. */
interface NewRecordsEvent {
  path: string;
  key: string;
  field: string;
  /** Members counting the new records of each `type` (invoices). */
  byType?: Record<string, string>;
  /** "After link creation the first refresh counts the whole history" (transactions). */
  wholeHistoryFirst?: boolean;
}

export const NEW_RECORDS: Record<LinkKind, readonly NewRecordsEvent[]> = {
  link: [
    { path: '/api/accounts/', key: 'ACCOUNTS new_accounts_available', field: 'new_accounts' },
    { path: '/api/owners/', key: 'OWNERS new_owners_available', field: 'new_owners' },
    {
      path: '/api/transactions/',
      key: 'TRANSACTIONS new_transactions_available',
      field: 'new_transactions',
      wholeHistoryFirst: true,
    },
  ],
  fiscalMx: [
    {
      path: '/api/invoices/',
      key: 'INVOICES new_invoices_available',
      field: 'new_invoices',
      byType: { INFLOW: 'new_inflow_invoices', OUTFLOW: 'new_outflow_invoices' },
    },
    { path: '/api/tax-returns/', key: 'TAX_RETURNS new_tax_returns_available', field: 'new_tax_returns' },
  ],
};

/** The link's records by list path. */
export type Snapshot = Map<string, Map<string, JsonObject>>;

export async function snapshot(http: HttpSession, kind: LinkKind, link: string): Promise<Snapshot> {
  const lists: Snapshot = new Map();
  for (const { path } of NEW_RECORDS[kind]) {
    const records = await listByLink(http, path, link);
    lists.set(path, new Map(records.map((record) => [String(record.id), record])));
  }
  return lists;
}

/** The payloads' `data` of one event key. */
const dataOf = (payloads: readonly JsonObject[], key: string): JsonObject[] =>
  payloads
    .filter((payload) => eventKey(payload.webhook_type, payload.webhook_code) === key)
    .flatMap((payload) => (isObject(payload.data) ? [payload.data] : []));

const sum = (data: readonly JsonObject[], field: string) =>
  data.reduce((total, item) => total + (typeof item[field] === 'number' ? item[field] : Number.NaN), 0);

/** Ids listed under `field` in the events of `key`. */
export const listedIds = (payloads: readonly JsonObject[], key: string, field: string): string[] =>
  dataOf(payloads, key).flatMap((data) => (Array.isArray(data[field]) ? data[field].map(String) : []));

/** `new_*_available`: the counts equal the records that appeared (the whole history on a first refresh). */
export function newRecordProblems(
  kind: LinkKind,
  [before, after]: [Snapshot, Snapshot],
  payloads: readonly JsonObject[],
  first: boolean,
): string[] {
  const problems: string[] = [];
  for (const event of NEW_RECORDS[kind]) {
    const old = before.get(event.path) ?? new Map<string, JsonObject>();
    const now = after.get(event.path) ?? new Map<string, JsonObject>();
    const added = [...now.values()].filter((record) => !old.has(String(record.id)));
    const whole = new Set([...old.keys(), ...now.keys()]).size;
    const counted = first && event.wholeHistoryFirst ? whole : added.length;
    const data = dataOf(payloads, event.key);
    const sent = sum(data, event.field);
    const what =
      first && event.wholeHistoryFirst ? 'records in the whole history' : `new records in ${event.path}`;
    if (sent !== counted)
      problems.push(`${event.key} counts ${sent} ${event.field}; there are ${counted} ${what}`);
    for (const [type, field] of Object.entries(event.byType ?? {})) {
      const ofType = added.filter((record) => record.type === type).length;
      if (sum(data, field) !== ofType)
        problems.push(`${event.key} counts ${sum(data, field)} ${field}; ${ofType} appeared`);
    }
  }
  return problems;
}

/** A record as compared across a refresh: without `collected_at`, which a refresh may renew. */
function comparable(record: JsonObject): string {
  const { collected_at: _collected, ...rest } = record;
  return canonicalJson(rest);
}

const sameIds = (listed: readonly string[], wanted: readonly string[]) =>
  listed.length === wanted.length &&
  new Set(listed).size === wanted.length &&
  wanted.every((id) => listed.includes(id));

function expectIds(key: string, listed: string[], wanted: string[], what: string): string[] {
  if (sameIds(listed, wanted)) return [];
  return [`${key} listed [${listed.join(', ')}]; the refresh ${what} [${wanted.join(', ')}]`];
}

/** `transactions_updated` / `transactions_deleted` / `invoices_cancelled` list exactly what changed. */
export function changeProblems(
  [before, after]: [Snapshot, Snapshot],
  payloads: readonly JsonObject[],
): string[] {
  const problems: string[] = [];
  const transactions = [before.get('/api/transactions/'), after.get('/api/transactions/')] as const;
  if (transactions[0] && transactions[1]) {
    const [old, now] = transactions;
    const changed = [...old].filter(([id, r]) => now.has(id) && comparable(now.get(id)!) !== comparable(r));
    const removed = [...old.keys()].filter((id) => !now.has(id));
    const updated = 'TRANSACTIONS transactions_updated';
    const deleted = 'TRANSACTIONS transactions_deleted';
    problems.push(
      ...expectIds(
        updated,
        listedIds(payloads, updated, 'updated_transactions'),
        changed.map(([id]) => id),
        'changed',
      ),
    );
    problems.push(
      ...expectIds(deleted, listedIds(payloads, deleted, 'transactions_deleted'), removed, 'removed'),
    );
  }
  const invoices = [before.get('/api/invoices/'), after.get('/api/invoices/')] as const;
  if (invoices[0] && invoices[1]) {
    const [old, now] = invoices;
    const cancelled = [...now.values()]
      .filter(
        (r) => r.status === CANCELLED && old.has(String(r.id)) && old.get(String(r.id))?.status !== CANCELLED,
      )
      .map((r) => String(r.id));
    const key = 'INVOICES invoices_cancelled';
    problems.push(...expectIds(key, listedIds(payloads, key, 'cancelled_invoices'), cancelled, 'cancelled'));
  }
  return problems;
}

export const statusOf = (body: JsonValue | undefined) => (isObject(body) ? body.status : undefined);
