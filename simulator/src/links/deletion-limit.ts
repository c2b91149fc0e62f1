/**
 * DELETE-RATE-LIMIT: the deletion limit of an operation (`x-rate-limit`: 5 per 60 s), per API key and
 * collection, over a sliding window (choice), counted in one atomic step of the store at the tenant's
 * virtual time. An operation without a limit in the tenant's policy deletes freely.
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';

export async function checkDeletionRate(
  tenant: TenantRuntime,
  collection: string,
  operation: ApiOperation,
): Promise<Result<true, ApiErrors>> {
  const limit = tenant.policy.deletionLimits[operation.operationId];
  if (!limit) return ok(true);
  const hit = await tenant.store.hitSlidingWindow(
    `delete:${collection}`,
    tenant.clock.now(),
    limit.windowMs,
    limit.limit,
  );
  if (hit.allowed) return ok(true);
  const seconds = Math.ceil(hit.retryAfterMs / 1000);
  return err(
    apiError('too_many_requests', {
      rule: 'DELETE-RATE-LIMIT',
      message: `Too many deletions in ${collection}: at most ${limit.limit} per ${limit.windowMs / 1000} s are allowed; retry in ${seconds} seconds.`,
    }),
  );
}
