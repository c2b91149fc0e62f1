/**
 * GET `P/{id}/` (DATA-DETAIL, ERR-404) and DELETE `P/{id}/` (DATA-DELETE, DELETE-RATE-LIMIT where the
 * operation has `x-rate-limit`, ACCOUNT-DELETE-CASCADE and the other cascades of the resource table).
 * A method the document does not list for a path is refused by the router (ERR-405).
 */

import { type Handler, json, noContent } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { checkDeletionRate } from '../links/deletion-limit.js';
import { findOr404, publicView } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import type { DataResource } from './resource-catalogue.js';

export function detailHandler(resource: DataResource): Handler {
  return async ({ input, tenant }) => {
    const record = await findOr404(tenant, resource.path, input.path.id!);
    if (!record.ok) return record;
    return ok(json(200, publicView(record.value)));
  };
}

export function deleteHandler(resource: DataResource): Handler {
  return async ({ input, tenant, operation }) => {
    const record = await findOr404(tenant, resource.path, input.path.id!);
    if (!record.ok) return record;
    const allowed = await checkDeletionRate(tenant, resource.path, operation);
    if (!allowed.ok) return allowed;
    // DATA-DELETE: the record goes (a policy that keeps it answers 204 all the same).
    if (!tenant.policy.data.deletionsRemove) return ok(noContent());
    await tenant.store.delete(resource.path, record.value.id);
    await cascade(tenant, resource, record.value);
    return ok(noContent());
  };
}

/** Deletes what goes with the record: by its id in an `account` field, or its link's records. */
async function cascade(tenant: TenantRuntime, resource: DataResource, record: StoredRecord): Promise<void> {
  // ACCOUNT-DELETE-CASCADE: an account takes its transactions and owners with it.
  if (typeof record.link !== 'string' || !tenant.policy.data.deletionsCascade) return;
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
