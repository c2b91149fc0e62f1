/** The embedded default Store: maps per tenant and collection, with a per-link index. */
import { forgetViews } from './record-views.js';
import type { SlidingWindowHit, Store, StoredRecord, TenantSnapshot } from './store.js';

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

  put(record: StoredRecord): void {
    this.remove(record.id);
    this.byId.set(record.id, record);
    if (typeof record.link === 'string') {
      getOrCreate(this.byLink, record.link, () => new Map<string, StoredRecord>()).set(record.id, record);
    }
  }

  remove(id: string): boolean {
    const existing = this.byId.get(id);
    if (!existing) return false;
    this.byId.delete(id);
    if (typeof existing.link === 'string') this.byLink.get(existing.link)?.delete(id);
    return true;
  }
}

class TenantState {
  readonly collections = new Map<string, Collection>();
  readonly windows = new Map<string, number[]>();

  collection(name: string): Collection {
    return getOrCreate(this.collections, name, () => new Collection());
  }
}

export class MemoryStore implements Store {
  private readonly tenants = new Map<string, TenantState>();

  private tenant(name: string): TenantState {
    return getOrCreate(this.tenants, name, () => new TenantState());
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
    const records = this.tenant(tenant).collection(collection);
    const source = where.link === undefined ? records.byId : records.byLink.get(where.link);
    return source ? [...source.values()] : [];
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
    // One step: the tenant's old state is replaced whole, never cleared first.
    this.tenants.set(tenant, state);
  }

  async clearTenant(tenant: string) {
    this.tenants.delete(tenant);
  }
}
