/**
 * The records a recording holds, as the API served them last: every record an answer carried (a
 * list's page, a detail, a retrieval, a registration, an update), by collection and id, the latest
 * version winning and the first-seen order kept (a list serves records in the order they were
 * stored); a deletion removes the record (a link's, its data with it; an account's, its
 * transactions). Payments objects are kept by the collection the simulator stores them in (a charge
 * read under its authorization or intent is one of `/payments/br/charges/`, an enrollment completed
 * through `complete-redirection/` one of the enrollments), each version merged over the one before:
 * a V1 answer (PAY-VERSION-HEADER) shows fewer members than a V2 one, and the members it leaves out
 * keep their last shown values.
 */

import { ACCOUNTS, LINKS } from '../../../openapi/http/api-paths.js';
import { type ExchangeView, isSuccess, recordsOf, viewExchange } from '../checks/exchange-view.js';
import { collectionOf, pathIdOf, recordIdOf } from '../checks/session-check.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';

/** Collections every key reads alike: catalogues, not a tenant's state. */
const CATALOGUES = new Set([
  '/api/',
  '/api/institutions/',
  '/api/token/',
  '/payments/br/institutions/',
  '/payments/br/token/',
]);
const PAYMENTS = '/payments/br/';
const CHARGES = `${PAYMENTS}charges/`;

export type Records = Map<string, Map<string, Record<string, unknown>>>;

export interface RecordedState {
  /** The tenant's records by collection (`/api/links/`...), then by id. */
  records: Records;
  /** Records of collections no replay can store, by collection (ids counted once). */
  notReplayable: Map<string, Set<string>>;
  /** When the last exchange started (the replayed clock's instant). */
  lastAt?: string;
}

/** The tenants (key ids, as recorded) whose exchanges hold records of the API. */
export function recordingTenants(
  document: BridgeDocument,
  exchanges: readonly Exchange[],
  basePath: string,
): Set<string> {
  const tenants = new Set<string>();
  exchanges.forEach((exchange, index) => {
    const view = viewExchange(document, exchange, index, basePath);
    if (isSuccess(view) && view.key && tenantCollection(view) !== undefined) tenants.add(view.tenant);
  });
  return tenants;
}

/** The collection that stores a payments object the answer to `path` carries. */
function paymentsCollection(path: string): string {
  if (path.includes('/charges/')) return CHARGES;
  return `${PAYMENTS}${path.slice(PAYMENTS.length).split('/')[0]}/`;
}

function tenantCollection(view: ExchangeView): string | undefined {
  const collection = collectionOf(view);
  if (view.control || collection === undefined || CATALOGUES.has(collection)) return undefined;
  if (collection.startsWith(PAYMENTS)) return paymentsCollection(collection);
  return collection.includes('{') ? undefined : collection;
}

function forget(records: Records, view: ExchangeView, collection: string): void {
  const id = pathIdOf(view);
  if (id === undefined) return;
  records.get(collection)?.delete(id);
  const ownedBy = (record: Record<string, unknown>) =>
    collection === LINKS
      ? record.link === id
      : collection === ACCOUNTS && (record.account as { id?: unknown } | null | undefined)?.id === id;
  if (collection !== LINKS && collection !== ACCOUNTS) return;
  for (const [name, byId] of records) {
    if (collection === ACCOUNTS && name !== '/api/transactions/') continue;
    for (const [recordId, record] of byId) if (ownedBy(record)) byId.delete(recordId);
  }
}

function keep(state: RecordedState, view: ExchangeView, collection: string): void {
  if (view.query.has('fields') || view.query.has('omit')) return;
  for (const record of recordsOf(view)) {
    const id = recordIdOf(record);
    if (id === undefined) continue;
    if (!collection.startsWith('/api/') && !collection.startsWith(PAYMENTS)) {
      const seen = state.notReplayable.get(collection) ?? new Set<string>();
      state.notReplayable.set(collection, seen.add(id));
      continue;
    }
    const byId = state.records.get(collection) ?? new Map<string, Record<string, unknown>>();
    state.records.set(collection, byId);
    byId.set(id, collection.startsWith(PAYMENTS) ? { ...byId.get(id), ...record } : record);
  }
}

/** The state of `tenant` (undefined: every tenant) the exchanges leave behind. */
export function recordedState(
  document: BridgeDocument,
  exchanges: readonly Exchange[],
  basePath: string,
  tenant?: string,
): RecordedState {
  const state: RecordedState = { records: new Map(), notReplayable: new Map() };
  exchanges.forEach((exchange, index) => {
    const view = viewExchange(document, exchange, index, basePath);
    if (!state.lastAt || exchange.startedAt > state.lastAt) state.lastAt = exchange.startedAt;
    const collection = tenantCollection(view);
    if (collection === undefined || !isSuccess(view) || (tenant !== undefined && view.tenant !== tenant))
      return;
    if (view.method === 'DELETE') forget(state.records, view, collection);
    else keep(state, view, collection);
  });
  return state;
}
