/**
 * One tenant's view of the Store: every method with the tenant already given, so behaviour code reads
 * `tenant.store.get(collection, id)` and can never reach another tenant's state (AUTH-TENANT).
 */
import type {
  ConditionalPut,
  JobLease,
  JobRecord,
  LeasedJob,
  PutCondition,
  RecordSlice,
  Removal,
  RemovalRequest,
  SlidingWindowHit,
  Store,
  StoredRecord,
  TenantSnapshot,
} from '../store/store.js';

export interface TenantStore {
  get(collection: string, id: string): Promise<StoredRecord | undefined>;
  /** Store.peek, when the store has it: `get` read at once from a store this process alone holds. */
  peek?(collection: string, id: string): StoredRecord | undefined;
  put(collection: string, record: StoredRecord): Promise<void>;
  delete(collection: string, id: string): Promise<boolean>;
  list(collection: string, where?: { link?: string }): Promise<StoredRecord[]>;
  listSlice(collection: string, where: { link?: string }, start: number, count: number): Promise<RecordSlice>;
  deleteByLink(collection: string, link: string): Promise<number>;
  hitSlidingWindow(key: string, now: number, windowMs: number, limit: number): Promise<SlidingWindowHit>;
  exportTenant(): Promise<TenantSnapshot>;
  importTenant(snapshot: TenantSnapshot): Promise<void>;
  clearTenant(): Promise<void>;
  take(collection: string, id: string): Promise<StoredRecord | undefined>;
  consume(collection: string, id: string): Promise<StoredRecord | undefined>;
  nextSequence(name: string): Promise<number>;
  addJob(job: JobRecord): Promise<void>;
  claimDueJob(until: number): Promise<JobRecord | undefined>;
  upcomingJobs(limit: number): Promise<JobRecord[]>;
  countJobs(): Promise<number>;
  clearJobs(): Promise<void>;
  putIf(collection: string, record: StoredRecord, when: PutCondition): Promise<ConditionalPut>;
  removeRecord(removal: RemovalRequest): Promise<Removal>;
  leaseDueJob(until: number, owner: string): Promise<LeasedJob | undefined>;
  finishJob(lease: JobLease): Promise<boolean>;
  releaseJob(lease: JobLease): Promise<boolean>;
  renewJob(lease: JobLease): Promise<boolean>;
  cancelJob(id: string): Promise<boolean>;
}

/** The view of `store` scoped to `tenant`. */
export function scopeStore(store: Store, tenant: string): TenantStore {
  return {
    get: (collection, id) => store.get(tenant, collection, id),
    ...(store.peek && { peek: (collection: string, id: string) => store.peek?.(tenant, collection, id) }),
    put: (collection, record) => store.put(tenant, collection, record),
    delete: (collection, id) => store.delete(tenant, collection, id),
    list: (collection, where) => store.list(tenant, collection, where),
    listSlice: (collection, where, start, count) => store.listSlice(tenant, collection, where, start, count),
    deleteByLink: (collection, link) => store.deleteByLink(tenant, collection, link),
    hitSlidingWindow: (key, now, windowMs, limit) =>
      store.hitSlidingWindow(tenant, key, now, windowMs, limit),
    exportTenant: () => store.exportTenant(tenant),
    importTenant: (snapshot) => store.importTenant(tenant, snapshot),
    clearTenant: () => store.clearTenant(tenant),
    take: (collection, id) => store.take(tenant, collection, id),
    consume: (collection, id) => store.consume(tenant, collection, id),
    nextSequence: (name) => store.nextSequence(tenant, name),
    addJob: (job) => store.addJob(tenant, job),
    claimDueJob: (until) => store.claimDueJob(tenant, until),
    upcomingJobs: (limit) => store.upcomingJobs(tenant, limit),
    countJobs: () => store.countJobs(tenant),
    clearJobs: () => store.clearJobs(tenant),
    putIf: (collection, record, when) => store.putIf(tenant, collection, record, when),
    removeRecord: (removal) => store.removeRecord(tenant, removal),
    leaseDueJob: (until, owner) => store.leaseDueJob(tenant, until, owner),
    finishJob: (lease) => store.finishJob(tenant, lease),
    releaseJob: (lease) => store.releaseJob(tenant, lease),
    renewJob: (lease) => store.renewJob(tenant, lease),
    cancelJob: (id) => store.cancelJob(tenant, id),
  };
}
