/** The embedded default Store: maps per tenant and collection, with a per-link index. */
import { MemoryLogs } from './memory-logs.js';
import { forgetViews } from './record-views.js';
import type { JobRecord, SlidingWindowHit, Store, StoredRecord, TenantSnapshot } from './store.js';

/** Records indexed between two yields to the event loop during an import. */
const IMPORT_SLICE = 10_000;

function getOrCreate<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  const created = make();
  map.set(key, created);
  return created;
}

class Collection {
  readonly byId = new Map<string, StoredRecord>();
  readonly byLink = new Map<string, Map<string, StoredRecord>>();
  /**
   * The lists last handed out, whole (`''`) and per link, until a change: a list page of a link with
   * 10,000 records no longer copies them all on every request.
   */
  private readonly lists = new Map<string, readonly StoredRecord[]>();

  /** The records in order, whole or of one link; shared until the next change (do not change it). */
  listed(link: string | undefined): readonly StoredRecord[] {
    const key = link ?? '';
    let list = this.lists.get(key);
    if (list === undefined) {
      const source = link === undefined ? this.byId : this.byLink.get(link);
      list = source ? [...source.values()] : [];
      this.lists.set(key, list);
    }
    return list;
  }

  private changed(link: unknown): void {
    this.lists.delete('');
    if (typeof link === 'string') this.lists.delete(link);
  }

  put(record: StoredRecord): void {
    this.remove(record.id);
    this.changed(record.link);
    this.byId.set(record.id, record);
    if (typeof record.link === 'string') {
      getOrCreate(this.byLink, record.link, () => new Map<string, StoredRecord>()).set(record.id, record);
    }
  }

  /** Replaces a record keeping its place in the order (same id, same link). */
  replaceInPlace(record: StoredRecord): void {
    this.changed(record.link);
    this.byId.set(record.id, record);
    if (typeof record.link === 'string') this.byLink.get(record.link)?.set(record.id, record);
  }

  remove(id: string): boolean {
    const existing = this.byId.get(id);
    if (!existing) return false;
    this.changed(existing.link);
    this.byId.delete(id);
    if (typeof existing.link === 'string') this.byLink.get(existing.link)?.delete(id);
    return true;
  }
}

const byDueTime = (a: JobRecord, b: JobRecord) => a.at - b.at || a.order - b.order;

class TenantState {
  readonly collections = new Map<string, Collection>();
  readonly windows = new Map<string, number[]>();
  readonly sequences = new Map<string, number>();
  /** Soonest first (byDueTime); jobs are few (a tenant's pending retries, expiries, daily refresh). */
  jobs: JobRecord[] = [];

  collection(name: string): Collection {
    return getOrCreate(this.collections, name, () => new Collection());
  }
}

export class MemoryStore implements Store {
  private readonly states = new Map<string, TenantState>();

  private tenant(name: string): TenantState {
    return getOrCreate(this.states, name, () => new TenantState());
  }

  async get(tenant: string, collection: string, id: string) {
    return this.tenant(tenant).collection(collection).byId.get(id);
  }

  async put(tenant: string, collection: string, record: StoredRecord) {
    forgetViews(record);
    this.tenant(tenant).collection(collection).put(record);
  }

  async delete(tenant: string, collection: string, id: string) {
    return this.tenant(tenant).collection(collection).remove(id);
  }

  async list(tenant: string, collection: string, where: { link?: string } = {}) {
    return this.tenant(tenant).collection(collection).listed(where.link) as StoredRecord[];
  }

  async deleteByLink(tenant: string, collection: string, link: string) {
    const records = this.tenant(tenant).collection(collection);
    const ids = [...(records.byLink.get(link)?.keys() ?? [])];
    for (const id of ids) records.remove(id);
    return ids.length;
  }

  async hitSlidingWindow(tenant: string, key: string, now: number, windowMs: number, limit: number) {
    const windows = this.tenant(tenant).windows;
    const hits = (windows.get(key) ?? []).filter((at) => at > now - windowMs);
    const hit: SlidingWindowHit =
      hits.length >= limit
        ? { allowed: false, count: hits.length, retryAfterMs: (hits[0] ?? now) + windowMs - now }
        : { allowed: true, count: hits.length + 1, retryAfterMs: 0 };
    if (hit.allowed) hits.push(now);
    windows.set(key, hits);
    return hit;
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
    const state = this.tenant(tenant);
    state.jobs = state.jobs.filter((other) => other.id !== job.id);
    // Insert in order: a binary search would do, but a tenant holds a handful of jobs.
    const index = state.jobs.findIndex((other) => byDueTime(job, other) < 0);
    if (index === -1) state.jobs.push(job);
    else state.jobs.splice(index, 0, job);
  }

  async claimDueJob(tenant: string, until: number) {
    const state = this.states.get(tenant);
    const first = state?.jobs[0];
    if (!state || !first || first.at > until) return undefined;
    state.jobs.shift();
    return first;
  }

  async upcomingJobs(tenant: string, limit: number) {
    return this.states.get(tenant)?.jobs.slice(0, limit) ?? [];
  }

  async countJobs(tenant: string) {
    return this.states.get(tenant)?.jobs.length ?? 0;
  }

  async clearJobs(tenant: string) {
    const state = this.states.get(tenant);
    if (state) state.jobs = [];
  }
}
