/**
 * What the institution changes in records a link already had (WEBHOOK-DAILY): one transaction's
 * description is corrected (`transactions_updated`), one duplicate transaction is removed
 * (`transactions_deleted`), one Mexican invoice in force (`Vigente`) is cancelled (`Cancelado`,
 * `invoices_cancelled`, INVOICE-CANCELLED). The stored records change first, so the follow-up reads
 * (`id__in`, the invoice detail) show what the events say (WEBHOOK-FOLLOW-UP). Picks draw from the
 * tenant's seed.
 */

import { INVOICES, TRANSACTIONS } from '../../core/collections.js';
import { INVOICE_STATUS } from '../../core/invoice-status.js';
import type { TenantRuntime } from '../../core/tenant.js';
import type { StoredRecord } from '../../store/store.js';
import { invoicesCancelled, transactionsDeleted, transactionsUpdated } from './event-data.js';

const CORRECTED = / - corrected \d{4}-\d{2}-\d{2}$/;
const DESCRIPTION_MAX = 250;

const PICK_TRIES = 8;

/**
 * One record of `records` (the link's records before this refresh) as stored now, at a seeded position;
 * a record deleted since is skipped. Reads one record per try instead of the link's whole history, which
 * a daily refresh per link and day made the cost of a long clock move (measured: 14 links, one year).
 */
async function pickStored(
  tenant: TenantRuntime,
  path: string,
  records: readonly StoredRecord[],
  exclude?: string,
): Promise<StoredRecord | undefined> {
  for (let tries = 0; tries < PICK_TRIES && records.length > 0; tries += 1) {
    const candidate = records[tenant.random.int(0, records.length - 1)]!;
    if (candidate.id === exclude) continue;
    const stored = await tenant.store.get(path, candidate.id);
    if (stored) return stored;
  }
  return undefined;
}

function correctedDescription(description: unknown, today: string): string {
  const suffix = ` - corrected ${today}`;
  const base = String(description ?? 'Transaction').replace(CORRECTED, '');
  return `${base.slice(0, DESCRIPTION_MAX - suffix.length)}${suffix}`;
}

async function changeTransactions(tenant: TenantRuntime, link: StoredRecord, before: StoredRecord[]) {
  const now = new Date(tenant.clock.now()).toISOString();
  const updated = await pickStored(tenant, TRANSACTIONS, before);
  if (updated) {
    const description = correctedDescription(updated.description, now.slice(0, 10));
    await tenant.store.put(TRANSACTIONS, { ...updated, description, collected_at: now });
    tenant.emit(transactionsUpdated(link.id, [updated.id]));
  }
  const duplicate = await pickStored(tenant, TRANSACTIONS, before, updated?.id);
  if (duplicate) {
    await tenant.store.delete(TRANSACTIONS, duplicate.id);
    tenant.emit(transactionsDeleted(link.id, [duplicate.id]));
  }
}

async function cancelInvoice(tenant: TenantRuntime, link: StoredRecord, before: StoredRecord[]) {
  const inForce = before.filter((record) => record.status === INVOICE_STATUS.inForce);
  const picked = await pickStored(tenant, INVOICES, inForce);
  const invoice = picked?.status === INVOICE_STATUS.inForce ? picked : undefined;
  if (!invoice) return;
  const cancelledAt = new Date(tenant.clock.now()).toISOString();
  // INVOICE-CANCELLED, in the SAT's words, with the provider's members that detail the cancellation.
  const cancelled = {
    ...invoice,
    status: INVOICE_STATUS.cancelled,
    cancelled_at: cancelledAt,
    cancelation_status: 'Cancelado sin aceptación',
    cancelation_update_date: cancelledAt.slice(0, 10),
  };
  await tenant.store.put(INVOICES, cancelled);
  tenant.emit(invoicesCancelled(link.id, [invoice.id]));
}

/** Applies the institution's changes to the records the link had before this refresh (by collection). */
export async function applyInstitutionChanges(
  tenant: TenantRuntime,
  link: StoredRecord,
  before: ReadonlyMap<string, StoredRecord[]>,
): Promise<void> {
  // As stored now (pickStored): a record deleted since the refresh read it is not changed again.
  await changeTransactions(tenant, link, before.get(TRANSACTIONS) ?? []);
  await cancelInvoice(tenant, link, before.get(INVOICES) ?? []);
}
