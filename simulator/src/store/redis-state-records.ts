/**
 * Records a page read at one state of a tenant: its generation and its count of record changes, which
 * every change of any of its records increments (redis-lua-prelude.ts). Each page read first asks
 * Redis for that state with the page's ids (one script, one round trip); when the state is the one
 * these records were read at, they are what Redis holds, so the page is served without fetching them
 * again. Nothing here decides an answer on its own: a state another replica changed, even by one write,
 * misses and the records are read from Redis. Bounded: a tenant's records of an older state are
 * dropped when a newer state is kept, and the least recently used tenants go first.
 */
import type { RecordSlice, StoredRecord } from './store.js';

interface TenantRecords {
  state: string;
  /** collection -> id -> the record at `state` (no key built per record: a page looks up 100). */
  records: Map<string, Map<string, StoredRecord>>;
  size: number;
  /** A page's window (its collection, link, start and count) -> the page at `state`. */
  windows: Map<string, RecordSlice>;
}

export class StateRecords {
  private readonly byTenant = new Map<string, TenantRecords>();

  constructor(
    private readonly tenantsKept = 64,
    private readonly recordsPerTenant = 20_000,
  ) {}

  /** The records of `ids` as read at `state`, or undefined unless every one of them was. */
  find(
    tenant: string,
    state: string,
    collection: string,
    ids: readonly string[],
  ): StoredRecord[] | undefined {
    const kept = this.byTenant.get(tenant);
    if (kept === undefined || kept.state !== state) return undefined;
    const records = kept.records.get(collection);
    if (records === undefined) return undefined;
    const found: StoredRecord[] = [];
    for (const id of ids) {
      const record = records.get(id);
      if (record === undefined) return undefined;
      found.push(record);
    }
    // Most recently used last: the first tenant of the map goes first.
    this.byTenant.delete(tenant);
    this.byTenant.set(tenant, kept);
    return found;
  }

  /** Keeps `records` (of `ids`, in order) as read at `state`; a tenant's older state is forgotten. */
  keep(
    tenant: string,
    state: string,
    collection: string,
    ids: readonly string[],
    records: readonly StoredRecord[],
  ): void {
    let kept = this.byTenant.get(tenant);
    if (kept === undefined || kept.state !== state || kept.size + ids.length > this.recordsPerTenant)
      kept = { state, records: new Map(), size: 0, windows: new Map() };
    const ofCollection = kept.records.get(collection) ?? new Map<string, StoredRecord>();
    kept.records.set(collection, ofCollection);
    for (const [index, id] of ids.entries()) {
      if (!ofCollection.has(id)) kept.size += 1;
      ofCollection.set(id, records[index]!);
    }
    this.byTenant.delete(tenant);
    this.byTenant.set(tenant, kept);
    if (this.byTenant.size > this.tenantsKept)
      this.byTenant.delete(this.byTenant.keys().next().value as string);
  }

  /** The tenant's kept state and the page of `window` at it, when that page was kept. */
  windowAt(tenant: string, window: string): { state: string; slice: RecordSlice } | undefined {
    const kept = this.byTenant.get(tenant);
    const slice = kept?.windows.get(window);
    return kept === undefined || slice === undefined ? undefined : { state: kept.state, slice };
  }

  /** Keeps the page of `window` as read at `state`, when that is the tenant's kept state. */
  keepWindow(tenant: string, state: string, window: string, slice: RecordSlice): void {
    const kept = this.byTenant.get(tenant);
    if (kept?.state === state) kept.windows.set(window, slice);
  }
}
