/**
 * Where the payment objects live in the tenant's store, typed access to them, and their API views.
 */

import type { ApiErrors } from '../core/api-error.js';
import { json } from '../core/handler.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { filterRecords } from '../pipeline/lists/list-filters.js';
import { paginate } from '../pipeline/lists/list-query.js';
import { findOr404, publicView } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';

export const CUSTOMERS = '/payments/br/customers/';
export const BANK_ACCOUNTS = '/payments/br/bank-accounts/';
export const AUTHORIZATIONS = '/payments/br/payment-authorizations/';
export const INTENTS = '/payments/br/payment-intents/';
/** Charges of authorizations and of intents, in one collection (the global charges list reads it). */
export const CHARGES = '/payments/br/charges/';
export const TRANSACTIONS = '/payments/br/transactions/';
export const ENROLLMENTS = '/payments/br/enrollments/';

/** One stored payment object of a known shape. */
export async function getRecord<T extends StoredRecord>(
  tenant: TenantRuntime,
  collection: string,
  id: string,
): Promise<T | undefined> {
  return (await tenant.store.get(collection, id)) as T | undefined;
}

/** ERR-404 for a payment object; `field` names the body member that named it. */
export async function findRecord<T extends StoredRecord>(
  tenant: TenantRuntime,
  collection: string,
  id: string,
  field?: string,
): Promise<Result<T, ApiErrors>> {
  return (await findOr404(tenant, collection, id, field)) as Result<T, ApiErrors>;
}

export async function listRecords<T extends StoredRecord>(
  tenant: TenantRuntime,
  collection: string,
): Promise<T[]> {
  return (await tenant.store.list(collection)) as T[];
}

export async function putRecord(tenant: TenantRuntime, collection: string, record: StoredRecord) {
  await tenant.store.put(collection, record);
}

/**
 * Puts `record` only if the stored object is still in status `from`: a transition made once, whichever
 * of two replicas (or a job run again after its replica died) makes it first; false for the other.
 */
export async function putTransition(
  tenant: TenantRuntime,
  collection: string,
  record: StoredRecord,
  from: string,
): Promise<boolean> {
  return (await tenant.store.putIf(collection, record, { field: 'status', equals: from })).put;
}

/** The view of an object whose API id is not `id` (authorizations, charges, enrollments). */
export function namedIdView(record: StoredRecord): Record<string, unknown> {
  const { id: _storeId, ...view } = publicView(record);
  return view;
}

/** A page of records: the list machine's filters (FILTER-*) and pagination (PAGE-*), then the view. */
export function pageOf(
  records: StoredRecord[],
  query: Record<string, unknown>,
  request: SimRequest,
  view: (record: StoredRecord) => unknown,
): SimResponse {
  return json(200, paginate(filterRecords(records, query).map(view), query, request));
}
