/** What every resource's handlers share: a record of the tenant or ERR-404, the public view, the time. */

import { type ApiErrors, apiError } from '../core/api-error.js';
import { json } from '../core/handler.js';
import type { SimResponse } from '../core/http-types.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { publicView } from '../store/record-views.js';
import type { StoredRecord } from '../store/store.js';

/** The last instant written and its text: a request dates several records in the same millisecond. */
let lastMs = Number.NaN;
let lastIso = '';

export function nowIso(tenant: TenantRuntime): string {
  const ms = tenant.clock.now();
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** ERR-404: a record of the caller's tenant, or a 404 naming what was asked for. */
export async function findOr404(
  tenant: TenantRuntime,
  collection: string,
  id: string,
  field?: string,
): Promise<Result<StoredRecord, ApiErrors>> {
  const record = await tenant.store.get(collection, id);
  return record ? ok(record) : err(notFound(collection, id, field));
}

/** ERR-404's error: no record `id` in `collection` (`field`: the body member that named it). */
export function notFound(collection: string, id: string, field?: string): ApiErrors {
  const what = field ? `\`${field}\` ${id}` : id;
  return apiError('not_found', { message: `No record ${what} in ${collection}.`, ...(field && { field }) });
}

/** Stored records may carry private members (`_...`); the API never shows them (cached per record). */
export { publicView };

/**
 * A read record's answer: its public view. Its bytes are not cached with the record: a stage or a break
 * that rewrites the body (a stale cache in front of the detail, the storm) would have the cached bytes
 * written instead of its body, and the cache measured no faster on GET of a link.
 */
export function recordAnswer(status: number, record: StoredRecord): SimResponse {
  return json(status, publicView(record));
}
