/**
 * Snapshots exported before the simulator sent the provider's values (formats `ofkit-snapshot/1` and
 * `/2`) import into this one: what can be said again in the provider's words is migrated, and what
 * cannot is refused with one line naming what changed.
 *
 * - TAX-RETURNS-MIXED (`/1` and `/2`): a tax return's `type` `YEARLY` and `MONTHLY` become the
 *   provider's `yearly` and `monthly`.
 * - INVOICE-CANCELLED (`/1`): invoice statuses `ACTIVE` and `CANCELLED` become the SAT's `Vigente` and
 *   `Cancelado`.
 * - A link's `institution_user_id` (32 hex characters then) takes the provider's form, derived again
 *   from the link's institution and username as a new link's is.
 * - Tax returns are one per link, kind and period now (a return retrieved again keeps its id): a
 *   snapshot holding two of the same period, which a daily refresh could store before, is refused,
 *   since choosing which of them to keep is the user's call.
 *
 * Institution ids (integers now) and the object answers of three retrievals are not stored, so a
 * snapshot holds nothing of them to migrate.
 */
import type { ApiErrors } from '../core/api-error.js';
import { apiError } from '../core/api-error.js';
import { INVOICES, LINKS, TAX_RETURNS } from '../core/collections.js';
import { INVOICE_STATUS } from '../core/invoice-status.js';
import { err, ok, type Result } from '../core/result.js';
import { taxReturnPeriod } from '../core/tax-return-period.js';
import { institutionUserId } from '../links/institution-user-id.js';
import type { StoredRecord } from '../store/store.js';
import type { SnapshotState } from './snapshot.js';

/** The format of the snapshots exported before the provider's values, migrated on import. */
export const SNAPSHOT_FORMAT_BEFORE_PROVIDER_VALUES = 'ofkit-snapshot/1';
/** The format of the snapshots exported before tax returns spelt `type` as the provider does. */
export const SNAPSHOT_FORMAT_BEFORE_TAX_RETURN_TYPES = 'ofkit-snapshot/2';

const OLD_INVOICE_STATUS: Readonly<Record<string, string>> = {
  ACTIVE: INVOICE_STATUS.inForce,
  CANCELLED: INVOICE_STATUS.cancelled,
};
const OLD_INSTITUTION_USER_ID = /^[0-9a-f]{32}$/;

type Collections = SnapshotState['store']['collections'];

function migrateInvoices(records: readonly StoredRecord[]): StoredRecord[] {
  return records.map((record) => {
    const status = typeof record.status === 'string' ? OLD_INVOICE_STATUS[record.status] : undefined;
    return status === undefined ? record : { ...record, status };
  });
}

/** TAX-RETURNS-MIXED: `YEARLY` and `MONTHLY` as the provider spells them, `yearly` and `monthly`. */
function migrateTaxReturns(records: readonly StoredRecord[]): StoredRecord[] {
  return records.map((record) =>
    record.type === 'YEARLY' || record.type === 'MONTHLY'
      ? { ...record, type: record.type.toLowerCase() }
      : record,
  );
}

function migrateLinks(records: readonly StoredRecord[], tenant: string): StoredRecord[] {
  return records.map((link) => {
    const old = link.institution_user_id;
    if (typeof old !== 'string' || !OLD_INSTITUTION_USER_ID.test(old)) return link;
    const username = link._username ?? old;
    return { ...link, institution_user_id: institutionUserId(tenant, String(link.institution), username) };
  });
}

/** The first two tax returns of one link, kind and period, or undefined when every period has one. */
function duplicatedPeriod(records: readonly StoredRecord[]): [StoredRecord, StoredRecord] | undefined {
  const seen = new Map<string, StoredRecord>();
  for (const record of records) {
    const key = `${String(record.link)}|${taxReturnPeriod(record)}`;
    const earlier = seen.get(key);
    if (earlier) return [earlier, record];
    seen.set(key, record);
  }
  return undefined;
}

function duplicateError(pair: [StoredRecord, StoredRecord]): ApiErrors {
  const [first, second] = pair;
  const period = `${String(first.type ?? 'yearly').toLowerCase()} ${String(first.year)}${first.month ? `-${String(first.month).padStart(2, '0')}` : ''}`;
  const message =
    `This ${SNAPSHOT_FORMAT_BEFORE_PROVIDER_VALUES} snapshot holds two tax returns of link ${String(first.link)} ` +
    `for the ${period} period (${first.id}, ${second.id}); tax returns are now one per link, kind and ` +
    'period (retrieved again, a return keeps its id): keep one of them in the snapshot and import it again.';
  return apiError('invalid', { field: `state.store.collections.${TAX_RETURNS}`, message });
}

/**
 * The state to import: an `ofkit-snapshot/1` or `/2` one migrated (a copy; `state` is not changed), or
 * the 400 that names what it holds and can no longer be; a current one as it is.
 */
export function migrateSnapshot(
  format: string,
  state: SnapshotState,
  tenant: string,
): Result<SnapshotState, ApiErrors> {
  const before = format === SNAPSHOT_FORMAT_BEFORE_PROVIDER_VALUES;
  if (!before && format !== SNAPSHOT_FORMAT_BEFORE_TAX_RETURN_TYPES) return ok(state);
  const collections: Collections = { ...state.store.collections };
  if (collections[TAX_RETURNS]) collections[TAX_RETURNS] = migrateTaxReturns(collections[TAX_RETURNS]);
  if (!before) return ok({ ...state, store: { ...state.store, collections } });
  const duplicated = duplicatedPeriod(collections[TAX_RETURNS] ?? []);
  if (duplicated) return err(duplicateError(duplicated));
  if (collections[INVOICES]) collections[INVOICES] = migrateInvoices(collections[INVOICES]);
  if (collections[LINKS]) collections[LINKS] = migrateLinks(collections[LINKS], tenant);
  return ok({ ...state, store: { ...state.store, collections } });
}
