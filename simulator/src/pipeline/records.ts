/** Small pieces the resource handlers share. */

import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';

export const nowIso = (tenant: TenantRuntime) => new Date(tenant.clock.now()).toISOString();

/** ERR-404: a record of the caller's tenant, or a 404 naming what was asked for. */
export async function findOr404(
  tenant: TenantRuntime,
  collection: string,
  id: string,
  field?: string,
): Promise<Result<StoredRecord, ApiErrors>> {
  const record = await tenant.store.get(collection, id);
  if (record) return ok(record);
  // brokenRules ERR-404: the unknown id taken for a bad parameter.
  if (tenant.brokenRules.has('ERR-404')) {
    return err(apiError('invalid', { field: field ?? 'id', message: `Invalid id ${id}.` }));
  }
  const what = field ? `\`${field}\` ${id}` : id;
  return err(
    apiError('not_found', { message: `No record ${what} in ${collection}.`, ...(field && { field }) }),
  );
}

/** Stored records may carry private members (`_...`); the API never shows them (cached per record). */
export { publicView } from '../store/record-views.js';

/** A numeric member of an operation's `x-` extension (the document holds the rules' numbers). */
export function extensionNumber(operation: ApiOperation, extension: string, member: string): number {
  const value = (operation.raw[extension] as Record<string, unknown> | undefined)?.[member];
  if (typeof value !== 'number')
    throw new Error(`${operation.operationId} has no numeric ${extension}.${member}`);
  return value;
}

/**
 * DELETE-RATE-LIMIT: `x-rate-limit` of the operation (5 per 60 s), per API key and collection, sliding
 * window (choice).
 */
export async function checkDeletionRate(
  tenant: TenantRuntime,
  collection: string,
  operation: ApiOperation,
): Promise<Result<true, ApiErrors>> {
  // brokenRules: a simulator broken on purpose proves the conformance suite catches it.
  if (tenant.brokenRules.has('DELETE-RATE-LIMIT')) return ok(true);
  const limit = extensionNumber(operation, 'x-rate-limit', 'limit');
  const windowMs = extensionNumber(operation, 'x-rate-limit', 'window_seconds') * 1000;
  const hit = await tenant.store.hitSlidingWindow(
    `delete:${collection}`,
    tenant.clock.now(),
    windowMs,
    limit,
  );
  if (hit.allowed) return ok(true);
  const seconds = Math.ceil(hit.retryAfterMs / 1000);
  return err(
    apiError('too_many_requests', {
      rule: 'DELETE-RATE-LIMIT',
      message: `Too many deletions in ${collection}: at most ${limit} per ${windowMs / 1000} s are allowed; retry in ${seconds} seconds.`,
    }),
  );
}
