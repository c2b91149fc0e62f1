/**
 * The data an institution holds for a link, as the link's events reach it (historical updates, the daily
 * refresh): the contract they need, kept in the kernel so that they depend on nothing above them.
 * The data resources implement it (data/create-link-data.ts, on the retrieval machine).
 */
import type { StoredRecord } from '../store/store.js';
import type { TenantRuntime } from './tenant.js';

/** What a webhook's retrieval narrows a resource to: one account's records, a date range (inclusive `YYYY-MM-DD`). */
export interface RetrievalScope {
  account?: string;
  from?: string;
  to?: string;
}

export interface LinkData {
  /** Collection paths of the data resources (`/api/accounts/`, `/api/mx/invoices/`...). */
  readonly collections: readonly string[];
  /**
   * DATA-RETRIEVE: the link's records of one resource within the scope, generated deterministically
   * (same seed, same link, same records), stored, and returned.
   */
  fetch(
    tenant: TenantRuntime,
    link: StoredRecord,
    path: string,
    scope?: RetrievalScope,
  ): Promise<StoredRecord[]>;
  /** Daily refresh: `count` new records of the resource dated on the tenant's current day, stored and returned. */
  addNew(tenant: TenantRuntime, link: StoredRecord, path: string, count: number): Promise<StoredRecord[]>;
}
