/**
 * GET `P/{id}/` (DATA-DETAIL, ERR-404) and DELETE `P/{id}/` (DATA-DELETE, DELETE-RATE-LIMIT where the
 * operation has `x-rate-limit`, ACCOUNT-DELETE-CASCADE and the other cascades of the resource table).
 * A method the document does not list for a path is refused by the router (ERR-405).
 */

import { type Handler, noContent } from '../core/handler.js';
import { err, ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { checkDeletionRate, deletionWindow, tooManyDeletions } from '../links/deletion-limit.js';
import { findOr404, notFound, recordAnswer } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import type { DataResource } from './resource-catalogue.js';

export function detailHandler(resource: DataResource): Handler {
  return async ({ input, tenant }) => {
    const record = await findOr404(tenant, resource.path, input.path.id!);
    if (!record.ok) return record;
    return ok(recordAnswer(200, record.value));
  };
}

export function deleteHandler(resource: DataResource): Handler {
  return async ({ input, tenant, operation }) => {
    const id = input.path.id!;
    if (!tenant.policy.data.deletionsRemove) {
      // DATA-DELETE broken: the record stays, the answer is 204 all the same.
      const record = await findOr404(tenant, resource.path, id);
      if (!record.ok) return record;
      const allowed = await checkDeletionRate(tenant, resource.path, operation);
      return allowed.ok ? ok(noContent()) : allowed;
    }
    // DATA-DELETE, DELETE-RATE-LIMIT: one atomic step of the store, so that of several replicas deleting
    // one record at once exactly one answers 204 and takes a slot of the window; the others 404.
    const window = deletionWindow(tenant, resource.path, operation);
    const removal = await tenant.store.removeRecord({
      collection: resource.path,
      id,
      ...(window && { window }),
    });
    if (removal.outcome === 'missing') return err(notFound(resource.path, id));
    if (removal.outcome === 'refused') return err(tooManyDeletions(resource.path, window!, removal.hit));
    await cascade(tenant, resource, removal.record);
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
