/**
 * GET `P/{id}/` (DATA-DETAIL, ERR-404) and DELETE `P/{id}/` (DATA-DELETE, DELETE-RATE-LIMIT where the
 * operation has `x-rate-limit`, ACCOUNT-DELETE-CASCADE and the other cascades of the resource table).
 * A method the document does not list for a path is refused by the router (ERR-405).
 */

import { type Handler, json, noContent } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { checkDeletionRate, findOr404, publicView } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import type { DataResource } from './resource-catalogue.js';

export function detailHandler(resource: DataResource): Handler {
  return async ({ input, tenant }) => {
    const record = await findOr404(tenant, resource.path, input.path.id!);
    if (!record.ok) return record;
    // brokenRules DATA-DETAIL: a stale cache in front of the detail serves the record as an earlier read
    // (a day before) had it, so the detail no longer agrees with the list.
    if (tenant.brokenRules.has('DATA-DETAIL')) {
      const view = publicView(record.value) as { collected_at?: unknown };
      const read = typeof view.collected_at === 'string' ? Date.parse(view.collected_at) : Number.NaN;
      if (!Number.isNaN(read))
        return ok(json(200, { ...view, collected_at: new Date(read - 86_400_000).toISOString() }));
    }
    return ok(json(200, publicView(record.value)));
  };
}

export function deleteHandler(resource: DataResource): Handler {
  return async ({ input, tenant, operation }) => {
    const record = await findOr404(tenant, resource.path, input.path.id!);
    if (!record.ok) return record;
    if (operation.raw['x-rate-limit'] !== undefined) {
      const allowed = await checkDeletionRate(tenant, resource.path, operation);
      if (!allowed.ok) return allowed;
    }
    // brokenRules DATA-DELETE: 204, but the record stays.
    if (tenant.brokenRules.has('DATA-DELETE')) return ok(noContent());
    await tenant.store.delete(resource.path, record.value.id);
    await cascade(tenant, resource, record.value);
    return ok(noContent());
  };
}

/** Deletes what goes with the record: by its id in an `account` field, or its link's records. */
async function cascade(tenant: TenantRuntime, resource: DataResource, record: StoredRecord): Promise<void> {
  if (typeof record.link !== 'string') return;
  // brokenRules: a simulator broken on purpose proves the conformance suite catches it.
  if (tenant.brokenRules.has('ACCOUNT-DELETE-CASCADE')) return;
  for (const { path, by } of resource.row.cascade ?? []) {
    if (by === 'link') {
      await tenant.store.deleteByLink(path, record.link);
      continue;
    }
    for (const child of await tenant.store.list(path, { link: record.link })) {
      if (idOf(child[by]) === record.id) await tenant.store.delete(path, child.id);
    }
  }
}

/** A reference's id: the value itself, or the `id` of a nested record (a transaction's `account`). */
function idOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'id' in value ? (value as { id: unknown }).id : value;
}
