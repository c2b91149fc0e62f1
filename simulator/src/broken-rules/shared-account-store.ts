/**
 * AUTH-TENANT broken on purpose: a store whose record queries are not scoped by API key, so every key
 * reads, changes and deletes one shared account (the leak of a server that forgot the tenant in its
 * WHERE). The simulator's own runtime state (collections named `_...`: clock, faults, scenarios; jobs
 * and counters) stays per tenant: the break is in the API's data, not in the control API.
 */
import type { Store } from '../store/store.js';

const SHARED = 'shared-account';

/** The tenant a collection's records are kept under: the shared account, except runtime state. */
const scope = (tenant: string, collection: string) => (collection.startsWith('_') ? tenant : SHARED);

export function sharedAccountStore(store: Store): Store {
  return {
    jobLeaseMs: store.jobLeaseMs,
    get: (tenant, collection, id) => store.get(scope(tenant, collection), collection, id),
    put: (tenant, collection, record) => store.put(scope(tenant, collection), collection, record),
    delete: (tenant, collection, id) => store.delete(scope(tenant, collection), collection, id),
    list: (tenant, collection, where) => store.list(scope(tenant, collection), collection, where),
    listSlice: (tenant, collection, where, start, count) =>
      store.listSlice(scope(tenant, collection), collection, where, start, count),
    deleteByLink: (tenant, collection, link) =>
      store.deleteByLink(scope(tenant, collection), collection, link),
    take: (tenant, collection, id) => store.take(scope(tenant, collection), collection, id),
    consume: (tenant, collection, id) => store.consume(scope(tenant, collection), collection, id),
    hitSlidingWindow: (tenant, key, now, windowMs, limit) =>
      store.hitSlidingWindow(tenant, key, now, windowMs, limit),
    exportTenant: () => store.exportTenant(SHARED),
    importTenant: (_tenant, snapshot) => store.importTenant(SHARED, snapshot),
    clearTenant: () => store.clearTenant(SHARED),
    nextSequence: (tenant, name) => store.nextSequence(tenant, name),
    tenants: () => store.tenants(),
    appendLog: (tenant, log, entry, bounds) => store.appendLog(tenant, log, entry, bounds),
    readLog: (tenant, log, after, limit) => store.readLog(tenant, log, after, limit),
    clearLogs: (tenant) => store.clearLogs(tenant),
    addJob: (tenant, job) => store.addJob(tenant, job),
    claimDueJob: (tenant, until) => store.claimDueJob(tenant, until),
    upcomingJobs: (tenant, limit) => store.upcomingJobs(tenant, limit),
    countJobs: (tenant) => store.countJobs(tenant),
    clearJobs: (tenant) => store.clearJobs(tenant),
    putIf: (tenant, collection, record, when) =>
      store.putIf(scope(tenant, collection), collection, record, when),
    // The removal's record decides the scope of the whole step (its mark included).
    removeRecord: (tenant, removal) => store.removeRecord(scope(tenant, removal.collection), removal),
    leaseDueJob: (tenant, until, owner) => store.leaseDueJob(tenant, until, owner),
    finishJob: (tenant, lease) => store.finishJob(tenant, lease),
    releaseJob: (tenant, lease) => store.releaseJob(tenant, lease),
    renewJob: (tenant, lease) => store.renewJob(tenant, lease),
    cancelJob: (tenant, id) => store.cancelJob(tenant, id),
  };
}
