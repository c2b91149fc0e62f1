/**
 * What firing each event of the catalogue does to a link (the control API's `fireLinkEvent`): the
 * same work the simulator's own triggers do, so the event's `data` comes from the link's records and
 * the follow-up reads find what it says (WEBHOOK-FOLLOW-UP).
 */
import { type ApiErrors, apiError } from '../core/api-error.js';
import { TRANSACTIONS } from '../core/collections.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { historicalEvents, newRecordsEvents } from '../links/events/event-data.js';
import {
  eventResources,
  HISTORICAL_RESOURCES,
  historicalScope,
  NEW_RECORD_RESOURCES,
} from '../links/events/event-resources.js';
import {
  cancelInvoice,
  correctTransaction,
  dropDuplicateTransaction,
} from '../links/events/institution-changes.js';
import { failLogin } from '../links/events/login-failures.js';
import { ASYNC_LINK_DELETION } from '../links/link-deletion.js';
import type { StoredRecord } from '../store/store.js';

export interface Firing {
  tenant: TenantRuntime;
  link: StoredRecord;
  linkData: LinkData;
  /** How many new records a `new_*_available` event finds. */
  count: number;
  requestId: string;
}

type Fire = (firing: Firing) => Promise<Result<true, ApiErrors>>;

const refused = (message: string) => err(apiError('invalid', { field: 'event', message }));

/** The collection of `resource` for the link's institution, or the 400 saying it does not offer it. */
function collectionOf(firing: Firing, resource: string, order: readonly string[]): Result<string, ApiErrors> {
  const [found] = eventResources(firing.linkData, firing.link, [resource], order);
  if (found) return ok(found.path);
  const institution = String(firing.link.institution);
  return refused(`${institution} offers no ${resource}: this event cannot concern link ${firing.link.id}.`);
}

/** WEBHOOK-HISTORICAL: the resource loads from the institution, then its `historical_update` (the one `code`). */
const historical =
  (resource: string, code: string): Fire =>
  async (firing) => {
    const path = collectionOf(firing, resource, HISTORICAL_RESOURCES);
    if (!path.ok) return path;
    const { tenant, link, linkData } = firing;
    await linkData.fetch(tenant, link, path.value, historicalScope(resource, tenant.clock.now()));
    const stored = await tenant.store.list(path.value, { link: link.id });
    for (const event of historicalEvents[resource]?.(link.id, stored) ?? [])
      if (event.webhook_code === code) tenant.emit(event);
    return ok(true);
  };

/** WEBHOOK-DAILY: the institution finds `count` new records, and their `new_*_available`. */
const newRecords =
  (resource: string): Fire =>
  async (firing) => {
    const path = collectionOf(firing, resource, NEW_RECORD_RESOURCES);
    if (!path.ok) return path;
    const { tenant, link, linkData, count } = firing;
    const added = await linkData.addNew(tenant, link, path.value, count);
    if (added.length === 0) return refused(`Link ${link.id} has nothing to add ${resource} to (no account).`);
    for (const event of newRecordsEvents[resource]?.(link.id, added) ?? []) tenant.emit(event);
    return ok(true);
  };

/** WEBHOOK-DAILY: the institution changes one stored record (`change` raises the event). */
const changed =
  (resource: string, what: string, change: typeof correctTransaction): Fire =>
  async (firing) => {
    const path = collectionOf(firing, resource, NEW_RECORD_RESOURCES);
    if (!path.ok) return path;
    const { tenant, link } = firing;
    const records = await tenant.store.list(path.value, { link: link.id });
    if (await change(tenant, link, records)) return ok(true);
    return refused(
      `Link ${link.id} has no stored ${what} to change: retrieve them first (POST ${path.value}) or fire the ${resource.toLowerCase()} historical update.`,
    );
  };

/** WEBHOOK-SHAPE (a deprecated event the simulator never raises by itself): the link's transactions. */
const enrichment: Fire = async (firing) => {
  const path = collectionOf(firing, 'TRANSACTIONS', HISTORICAL_RESOURCES);
  if (!path.ok) return path;
  const { tenant, link } = firing;
  const total = (await tenant.store.list(TRANSACTIONS, { link: link.id })).length;
  tenant.emit({
    webhook_type: 'TRANSACTIONS',
    webhook_code: 'historical_enrichment',
    link_id: link.id,
    data: { total_transactions: total },
  });
  return ok(true);
};

/** LINK-DELETE-ASYNC: the link is deleted with its data now, and `link_deleted` follows. */
const deletion: Fire = async ({ tenant, link, requestId }) => {
  await tenant.clock.schedule(tenant.clock.now(), ASYNC_LINK_DELETION, { link: link.id, requestId });
  await tenant.clock.runDue();
  return ok(true);
};

const loginFailure =
  (failure: 'invalid' | 'token_required'): Fire =>
  async ({ tenant, link }) => {
    await failLogin(tenant, link, failure);
    return ok(true);
  };

/** Every event of admin.yaml's LinkEventName, by name. */
export const FIRINGS: Readonly<Record<string, Fire>> = {
  accounts_historical_update: historical('ACCOUNTS', 'historical_update'),
  accounts_new_accounts_available: newRecords('ACCOUNTS'),
  transactions_historical_update: historical('TRANSACTIONS', 'historical_update'),
  transactions_new_transactions_available: newRecords('TRANSACTIONS'),
  transactions_updated: changed('TRANSACTIONS', 'transactions', correctTransaction),
  transactions_deleted: changed('TRANSACTIONS', 'transactions', dropDuplicateTransaction),
  transactions_historical_enrichment: enrichment,
  owners_historical_update: historical('OWNERS', 'historical_update'),
  owners_new_owners_available: newRecords('OWNERS'),
  link_invalid_credentials: loginFailure('invalid'),
  link_token_required: loginFailure('token_required'),
  link_deleted: deletion,
  invoices_historical_inflow_update: historical('INVOICES', 'historical_inflow_update'),
  invoices_historical_outflow_update: historical('INVOICES', 'historical_outflow_update'),
  invoices_new_invoices_available: newRecords('INVOICES'),
  invoices_cancelled: changed('INVOICES', 'active Mexican invoices', cancelInvoice),
  tax_returns_historical_update: historical('TAX_RETURNS', 'historical_update'),
  tax_returns_new_tax_returns_available: newRecords('TAX_RETURNS'),
  tax_status_historical_update: historical('TAX_STATUS', 'historical_update'),
};

/** The events that change nothing but the link's status or existence: a link of any status may get them. */
export const LINK_EVENTS: ReadonlySet<string> = new Set([
  'link_invalid_credentials',
  'link_token_required',
  'link_deleted',
]);
