/**
 * What the institution changes in records a link already had (WEBHOOK-DAILY): one transaction's
 * description is corrected (`transactions_updated`), one duplicate transaction is removed
 * (`transactions_deleted`), one active Mexican invoice is cancelled (`invoices_cancelled`,
 * INVOICE-CANCELLED). The stored records change first, so the follow-up reads (`id__in`, the
 * invoice detail) show what the events say (WEBHOOK-FOLLOW-UP). Picks draw from the tenant's seed.
 */
import type { StoredRecord } from '../store/store.js';
import type { TenantRuntime } from '../tenants/tenant-runtime.js';
import { invoicesCancelled, transactionsDeleted, transactionsUpdated } from './event-data.js';

const TRANSACTIONS = '/api/transactions/';
const INVOICES = '/api/invoices/';
const CORRECTED = / - corrected \d{4}-\d{2}-\d{2}$/;
const DESCRIPTION_MAX = 250;

/** Takes one record out of `records` at a seeded position. */
function takeOne(tenant: TenantRuntime, records: StoredRecord[]): StoredRecord | undefined {
  if (records.length === 0) return undefined;
  const [taken] = records.splice(tenant.random.int(0, records.length - 1), 1);
  return taken;
}

function correctedDescription(description: unknown, today: string): string {
  const suffix = ` - corrected ${today}`;
  const base = String(description ?? 'Transaction').replace(CORRECTED, '');
  return `${base.slice(0, DESCRIPTION_MAX - suffix.length)}${suffix}`;
}

async function changeTransactions(tenant: TenantRuntime, link: StoredRecord, before: StoredRecord[]) {
  const candidates = [...before];
  const now = new Date(tenant.clock.now()).toISOString();
  const updated = takeOne(tenant, candidates);
  if (updated) {
    const description = correctedDescription(updated.description, now.slice(0, 10));
    await tenant.store.put(tenant.id, TRANSACTIONS, { ...updated, description, collected_at: now });
    tenant.emit(transactionsUpdated(link.id, [updated.id]));
  }
  const duplicate = takeOne(tenant, candidates);
  if (duplicate) {
    await tenant.store.delete(tenant.id, TRANSACTIONS, duplicate.id);
    tenant.emit(transactionsDeleted(link.id, [duplicate.id]));
  }
}

async function cancelInvoice(tenant: TenantRuntime, link: StoredRecord, before: StoredRecord[]) {
  const invoice = takeOne(
    tenant,
    before.filter((record) => record.status === 'ACTIVE'),
  );
  if (!invoice) return;
  const cancelledAt = new Date(tenant.clock.now()).toISOString();
  await tenant.store.put(tenant.id, INVOICES, { ...invoice, status: 'CANCELLED', cancelled_at: cancelledAt });
  tenant.emit(invoicesCancelled(link.id, [invoice.id]));
}

/** Applies the institution's changes to the records the link had before this refresh (by collection). */
export async function applyInstitutionChanges(
  tenant: TenantRuntime,
  link: StoredRecord,
  before: ReadonlyMap<string, StoredRecord[]>,
): Promise<void> {
  // As stored now: a record deleted since the refresh read it is not changed again.
  const stillStored = async (path: string) => {
    const earlier = before.get(path) ?? [];
    if (earlier.length === 0) return [];
    const now = new Map((await tenant.store.list(tenant.id, path, { link: link.id })).map((r) => [r.id, r]));
    return earlier.flatMap((record) => now.get(record.id) ?? []);
  };
  await changeTransactions(tenant, link, await stillStored(TRANSACTIONS));
  await cancelInvoice(tenant, link, await stillStored(INVOICES));
}
