/**
 * One snapshot import at a time per tenant, across replicas: a lease on the tenant's runtime record
 * `snapshot-import`, taken before the import's body is read (a second import is refused at once,
 * unread, instead of parsing two GiB-sized bodies side by side) and given back once the import is
 * answered. The lease is renewed while the import runs and lapses on its own when a replica dies mid
 * import; it lives in the runtime collection, which an import keeps and an export leaves out.
 */
import { RUNTIME_COLLECTION } from '../clock/tenant-clock.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';

const LOCK_ID = 'snapshot-import';
/** How long a lease holds without renewal (liveness only: measured on the machine's time). */
export const IMPORT_LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

type LockRecord = StoredRecord & { owner: string | null; until: number };

const record = (owner: string | null, until: number): LockRecord => ({ id: LOCK_ID, owner, until });

/**
 * Takes the tenant's import lease for `owner` (unique per import); resolves with its release, or
 * undefined when another import holds a live lease.
 */
export async function takeImportLease(
  tenant: TenantRuntime,
  owner: string,
  realTime: () => number,
): Promise<(() => Promise<void>) | undefined> {
  const put = (held: string | null) =>
    tenant.store.putIf(RUNTIME_COLLECTION, record(owner, realTime() + IMPORT_LEASE_MS), {
      field: 'owner',
      equals: held,
    });
  const free = await put(null);
  if (!free.put) {
    const before = free.before as LockRecord | undefined;
    // A lease that lapsed (its replica died mid import) is taken over, by one replica only.
    if (before === undefined || before.until > realTime() || (await put(before.owner)).put === false)
      return undefined;
  }
  const renewal = setInterval(() => void put(owner).catch(() => undefined), RENEW_EVERY_MS);
  renewal.unref();
  return async () => {
    clearInterval(renewal);
    await tenant.store.putIf(RUNTIME_COLLECTION, record(null, 0), { field: 'owner', equals: owner });
  };
}
