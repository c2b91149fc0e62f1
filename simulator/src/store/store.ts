/**
 * Per-tenant state behind an asynchronous interface, so a networked store can replace the in-memory one
 * when users outgrow one process (DESIGN.md). Every implementation must pass `runStoreContract`.
 */

export type StoredRecord = {
  readonly id: string;
  readonly link?: string | null;
  readonly [field: string]: unknown;
};

export interface SlidingWindowHit {
  allowed: boolean;
  /** Hits counted in the window, this one included when allowed. */
  count: number;
  /** Milliseconds until the oldest counted hit leaves the window. */
  retryAfterMs: number;
}

export interface Store {
  get(tenant: string, collection: string, id: string): Promise<StoredRecord | undefined>;
  /** Inserts or replaces by id; a new id goes to the end of the collection's order. */
  put(tenant: string, collection: string, record: StoredRecord): Promise<void>;
  delete(tenant: string, collection: string, id: string): Promise<boolean>;
  /** Records in insertion order; with `link`, only that link's (indexed). */
  list(tenant: string, collection: string, where?: { link?: string }): Promise<StoredRecord[]>;
  /** Deletes every record of the collection that belongs to `link`; returns how many. */
  deleteByLink(tenant: string, collection: string, link: string): Promise<number>;
  /**
   * Atomically counts a hit against a sliding window of `windowMs` ending at `now`; refused (and not
   * counted) when `limit` hits are already in the window (DELETE-RATE-LIMIT).
   */
  hitSlidingWindow(
    tenant: string,
    key: string,
    now: number,
    windowMs: number,
    limit: number,
  ): Promise<SlidingWindowHit>;
  /**
   * Everything of one tenant, as JSON, and back. Export may hand out the stored records themselves
   * (records are values: do not change them); import takes the records it is given and replaces the
   * tenant's whole state in one step, so that a reader sees the old state or the new, never a mix.
   */
  exportTenant(tenant: string): Promise<TenantSnapshot>;
  importTenant(tenant: string, snapshot: TenantSnapshot): Promise<void>;
  clearTenant(tenant: string): Promise<void>;
}

export interface TenantSnapshot {
  collections: Record<string, StoredRecord[]>;
  windows: Record<string, number[]>;
}
