/**
 * DELETE-RATE-LIMIT: the deletion limit of an operation (`x-rate-limit`: 5 per 60 s), per API key and
 * collection, over a sliding window (choice), counted in one atomic step of the store at the tenant's
 * virtual time. An operation without a limit in the tenant's policy deletes freely.
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { SlidingWindowHit } from '../store/store.js';

/** The window a deletion of `collection` counts against at the tenant's virtual time; none without a limit. */
export function deletionWindow(tenant: TenantRuntime, collection: string, operation: ApiOperation) {
  const limit = tenant.policy.deletionLimits[operation.operationId];
  if (!limit) return undefined;
  return {
    key: `delete:${collection}`,
    now: tenant.clock.now(),
    windowMs: limit.windowMs,
    limit: limit.limit,
  };
}

/** DELETE-RATE-LIMIT's 429: the limit and when the oldest deletion counted leaves the window. */
export function tooManyDeletions(
  collection: string,
  window: { windowMs: number; limit: number },
  hit: SlidingWindowHit,
): ApiErrors {
  const seconds = Math.ceil(hit.retryAfterMs / 1000);
  return apiError('too_many_requests', {
    rule: 'DELETE-RATE-LIMIT',
    message: `Too many deletions in ${collection}: at most ${window.limit} per ${window.windowMs / 1000} s are allowed; retry in ${seconds} seconds.`,
  });
}

export async function checkDeletionRate(
  tenant: TenantRuntime,
  collection: string,
  operation: ApiOperation,
): Promise<Result<true, ApiErrors>> {
  const window = deletionWindow(tenant, collection, operation);
  if (!window) return ok(true);
  const hit = await tenant.store.hitSlidingWindow(window.key, window.now, window.windowMs, window.limit);
  return hit.allowed ? ok(true) : err(tooManyDeletions(collection, window, hit));
}
