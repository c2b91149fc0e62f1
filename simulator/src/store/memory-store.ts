/** The embedded default Store: maps per tenant and collection, with a per-link index. */
import { Collection, getOrCreate } from './memory-collection.js';
import { MemoryLogs } from './memory-logs.js';
import { MemorySchedule } from './memory-schedule.js';
import { forgetViews } from './record-views.js';
import {
  type ConditionalPut,
  DEFAULT_JOB_LEASE_MS,
  type JobLease,
  type JobRecord,
  type PutCondition,
  type Removal,
  type RemovalRequest,
  type SlidingWindowHit,
  type Store,
  type StoredRecord,
  type TenantSnapshot,
} from './store.js';

/** Records indexed between two yields to the event loop during an import. */
const IMPORT_SLICE = 10_000;

class TenantState {
  readonly collections = new Map<string, Collection>();
  readonly windows = new Map<string, number[]>();
  readonly sequences = new Map<string, number>();
  jobs = new MemorySchedule();

  collection(name: string): Collection {
    return getOrCreate(this.collections, name, () => new Collection());
  }

  deleteByLink(collection: string, link: string): number {
    const records = this.collection(collection);
    const ids = [...(records.byLink.get(link)?.keys() ?? [])];
    for (const id of ids) records.remove(id);
    return ids.length;
  }

  /** DELETE-RATE-LIMIT's sliding window at virtual time `now`: counted only when allowed. */
  hit(key: string, now: number, windowMs: number, limit: number): SlidingWindowHit {
    const hits = (this.windows.get(key) ?? []).filter((at) => at > now - windowMs);
    const hit: SlidingWindowHit =
      hits.length >= limit
        ? { allowed: false, count: hits.length, retryAfterMs: (hits[0] ?? now) + windowMs - now }
        : { allowed: true, count: hits.length + 1, retryAfterMs: 0 };
    if (hit.allowed) hits.push(now);
    this.windows.set(key, hits);
    return hit;
  }
}

export interface MemoryStoreOptions {
  /** How long a job lease lasts unless renewed (default 30 s). */
  jobLeaseMs?: number;
  /** The store's own time for leases (liveness, never a rule); default a monotonic clock. */
  time?: () => number;
}

export class MemoryStore implements Store {
  private readonly states = new Map<string, TenantState>();
  readonly jobLeaseMs: number;
  private readonly time: () => number;
  /** One counter for every tenant: a lease token is never reused, even after a tenant is cleared. */
  private leaseTokens = 0;
  /** Made once: every request asks for a due job (most find none). */
  private readonly nextLeaseToken = () => ++this.leaseTokens;

  constructor(options: MemoryStoreOptions = {}) {
    this.jobLeaseMs = options.jobLeaseMs ?? DEFAULT_JOB_LEASE_MS;
    this.time = options.time ?? (() => performance.now());
  }

  private tenant(name: string): TenantState {
    return getOrCreate(this.states, name, () => new TenantState());
  }

  async get(tenant: string, collection: string, id: string) {
    return this.tenant(tenant).collection(collection).byId.get(id);
  }

  peek(tenant: string, collection: string, id: string): StoredRecord | undefined {
    return this.states.get(tenant)?.collections.get(collection)?.byId.get(id);
  }

  async put(tenant: string, collection: string, record: StoredRecord) {
    forgetViews(record);
    this.tenant(tenant).collection(collection).put(record);
  }

  async delete(tenant: string, collection: string, id: string) {
    return this.tenant(tenant).collection(collection).remove(id);
  }

  async list(tenant: string, collection: string, where: { link?: string } = {}) {
    return this.listed(tenant, collection, where);
  }

  async listSlice(
    tenant: string,
    collection: string,
    where: { link?: string },
    start: number,
    count: number,
  ) {
    const all = this.listed(tenant, collection, where);
    const from = Math.max(0, start);
    return { total: all.length, records: count > 0 ? all.slice(from, from + count) : [] };
  }

  /** The collection's records in order, or the link's (shared until the next change: see Store.list). */
  private listed(tenant: string, collection: string, where: { link?: string }): StoredRecord[] {
    return this.tenant(tenant).collection(collection).listed(where.link) as StoredRecord[];
  }

  async deleteByLink(tenant: string, collection: string, link: string) {
    return this.tenant(tenant).deleteByLink(collection, link);
  }

  async hitSlidingWindow(tenant: string, key: string, now: number, windowMs: number, limit: number) {
    return this.tenant(tenant).hit(key, now, windowMs, limit);
  }

  async exportTenant(tenant: string): Promise<TenantSnapshot> {
    const state = this.tenant(tenant);
    const collections: Record<string, StoredRecord[]> = {};
    for (const [name, collection] of state.collections) {
      // The records themselves, not copies: records are values (a change is a put of a new object), and
      // cloning a million of them blocked every tenant for seconds.
      if (collection.byId.size > 0) collections[name] = [...collection.byId.values()];
    }
    return { collections, windows: Object.fromEntries([...state.windows].map(([k, v]) => [k, [...v]])) };
  }

  async importTenant(tenant: string, snapshot: TenantSnapshot) {
    const state = new TenantState();
    let indexed = 0;
    for (const [name, records] of Object.entries(snapshot.collections)) {
      const collection = state.collection(name);
      for (const record of records) {
        forgetViews(record);
        collection.put(record);
        // A million records take a while to index: let other tenants' requests in meanwhile (the
        // tenant's own state changes only at the swap below).
        if (++indexed % IMPORT_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    for (const [key, hits] of Object.entries(snapshot.windows)) state.windows.set(key, [...hits]);
    // One step: the tenant's old state is replaced whole, never cleared first. Jobs and counters are not
    // part of a snapshot: they stay.
    const before = this.states.get(tenant);
    if (before) {
      state.jobs = before.jobs;
      for (const [name, value] of before.sequences) state.sequences.set(name, value);
    }
    this.states.set(tenant, state);
  }

  async clearTenant(tenant: string) {
    this.states.delete(tenant);
  }

  // Each method below changes state without an await in between: atomic on one event loop.
  async take(tenant: string, collection: string, id: string) {
    const records = this.tenant(tenant).collection(collection);
    const record = records.byId.get(id);
    if (record) records.remove(id);
    return record;
  }

  async consume(tenant: string, collection: string, id: string) {
    const records = this.tenant(tenant).collection(collection);
    const record = records.byId.get(id);
    if (!record) return undefined;
    const remaining = record.remaining;
    if (typeof remaining === 'number') {
      if (remaining <= 1) records.remove(id);
      else records.replaceInPlace({ ...record, remaining: remaining - 1 });
    }
    return record;
  }

  async nextSequence(tenant: string, name: string) {
    const sequences = this.tenant(tenant).sequences;
    const next = (sequences.get(name) ?? 0) + 1;
    sequences.set(name, next);
    return next;
  }

  // The tenants' bounded logs (memory-logs.ts): apart from their state, so clearTenant leaves them.
  private readonly logs = new MemoryLogs();

  async appendLog(...[tenant, log, entry, bounds]: Parameters<Store['appendLog']>) {
    return this.logs.append(tenant, log, entry, bounds);
  }

  async readLog(...[tenant, log, after, limit]: Parameters<Store['readLog']>) {
    return this.logs.read(tenant, log, after, limit);
  }

  async clearLogs(tenant: string) {
    this.logs.clear(tenant);
  }

  async tenants() {
    return [...this.states.keys()];
  }

  async addJob(tenant: string, job: JobRecord) {
    this.tenant(tenant).jobs.add(job);
  }

  async claimDueJob(tenant: string, until: number) {
    return this.states.get(tenant)?.jobs.claim(until);
  }

  async upcomingJobs(tenant: string, limit: number) {
    return this.states.get(tenant)?.jobs.upcoming(limit) ?? [];
  }

  async countJobs(tenant: string) {
    return this.states.get(tenant)?.jobs.count() ?? 0;
  }

  async clearJobs(tenant: string) {
    this.states.get(tenant)?.jobs.clear();
  }

  async putIf(tenant: string, collection: string, record: StoredRecord, when: PutCondition) {
    const records = this.tenant(tenant).collection(collection);
    const before = records.byId.get(record.id);
    const result: ConditionalPut = { put: false, before };
    if ((before?.[when.field] ?? null) !== when.equals) return result;
    forgetViews(record);
    records.put(record);
    return { ...result, put: true };
  }

  async removeRecord(tenant: string, removal: RemovalRequest): Promise<Removal> {
    const state = this.tenant(tenant);
    const records = state.collection(removal.collection);
    const record = records.byId.get(removal.id);
    if (!record) return { outcome: 'missing' };
    const { window, mark } = removal;
    if (window) {
      const hit = state.hit(window.key, window.now, window.windowMs, window.limit);
      if (!hit.allowed) return { outcome: 'refused', hit };
    }
    records.remove(removal.id);
    for (const name of removal.cascade ?? []) state.deleteByLink(name, removal.id);
    if (mark) {
      forgetViews(mark.record);
      state.collection(mark.collection).put(mark.record);
    }
    return { outcome: 'removed', record };
  }

  async leaseDueJob(tenant: string, until: number, owner: string) {
    const jobs = this.states.get(tenant)?.jobs;
    if (jobs === undefined) return undefined;
    return jobs.lease(until, { owner, now: this.time(), ms: this.jobLeaseMs, token: this.nextLeaseToken });
  }

  async finishJob(tenant: string, lease: JobLease) {
    return this.states.get(tenant)?.jobs.finish(lease) ?? false;
  }

  async releaseJob(tenant: string, lease: JobLease) {
    return this.states.get(tenant)?.jobs.release(lease) ?? false;
  }

  async renewJob(tenant: string, lease: JobLease) {
    return this.states.get(tenant)?.jobs.renew(lease, this.time(), this.jobLeaseMs) ?? false;
  }

  async cancelJob(tenant: string, id: string) {
    return this.states.get(tenant)?.jobs.remove(id) ?? false;
  }
}
