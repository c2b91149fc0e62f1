/**
 * The data an institution holds for a link, as the rest of the simulator reaches it: retrievals
 * (DATA-RETRIEVE), the webhook triggers (historical updates, daily refresh) and the cascades.
 * Implemented by `createLinkData` (issue 3, being built); signatures here are the contract.
 */
import type { JsonObject } from '../../../../openapi/validation/document-ajv.js';
import type { StoredRecord } from '../../store/store.js';
import type { TenantRuntime } from '../../tenants/tenant-runtime.js';

/** What a retrieval asks for: one account's records, a date range (inclusive `YYYY-MM-DD`). */
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

export function createLinkData(_document: JsonObject): LinkData {
  return {
    collections: [],
    fetch: () => Promise.reject(new Error('createLinkData: not built yet')),
    addNew: () => Promise.reject(new Error('createLinkData: not built yet')),
  };
}
