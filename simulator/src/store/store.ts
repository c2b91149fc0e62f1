/**
 * Per-tenant state behind an asynchronous interface, so a networked store can replace the in-memory one
 * when users outgrow one process (replicas behind a load balancer). Every implementation must pass `runStoreContract`.
 */

export type StoredRecord = {
  readonly id: string;
  readonly link?: string | null;
  readonly [field: string]: unknown;
};

export interface RecordSlice {
  /** How many records the whole list holds. */
  total: number;
  records: StoredRecord[];
}

export interface SlidingWindowHit {
  allowed: boolean;
  /** Hits counted in the window, this one included when allowed. */
  count: number;
  /** Milliseconds until the oldest counted hit leaves the window. */
  retryAfterMs: number;
}

export interface Store {
  /** How long a job lease lasts unless renewed (default DEFAULT_JOB_LEASE_MS). */
  readonly jobLeaseMs?: number;
  get(tenant: string, collection: string, id: string): Promise<StoredRecord | undefined>;
  /**
   * What `get` would give, read at once, from a store whose state this process alone holds (the memory
   * store), without creating anything. A store other processes share has none: what they change
   * reaches this one only through `get`.
   */
  peek?(tenant: string, collection: string, id: string): StoredRecord | undefined;
  /** Inserts or replaces by id; a new id goes to the end of the collection's order. */
  put(tenant: string, collection: string, record: StoredRecord): Promise<void>;
  delete(tenant: string, collection: string, id: string): Promise<boolean>;
  /**
   * Records in insertion order; with `link`, only that link's (indexed). The array may be shared with
   * other callers until the next change: copy it before sorting or changing it.
   */
  list(tenant: string, collection: string, where?: { link?: string }): Promise<StoredRecord[]>;
  /**
   * The records at positions [start, start + count) of what `list` gives, and how many `list` gives: a
   * page leaves the store without the rest of the link's records (PAGE-NAV needs only their number).
   */
  listSlice(
    tenant: string,
    collection: string,
    where: { link?: string },
    start: number,
    count: number,
  ): Promise<RecordSlice>;
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
  /** Forgets everything of the tenant: records, windows, counters and jobs. */
  clearTenant(tenant: string): Promise<void>;

  /**
   * Atomically gets and deletes a record, so that of two replicas asking at once one gets it
   * (LINK-MFA-428: a session resumed once).
   */
  take(tenant: string, collection: string, id: string): Promise<StoredRecord | undefined>;
  /**
   * Atomically uses a record up once: a numeric `remaining` goes down by one and the record is deleted
   * when it reaches 0; a `remaining` of null is never used up. The record keeps its place in the order. Returns the record as it was before, or
   * undefined when there is none (ERR-500-408: a fault armed for N requests fails exactly N).
   */
  consume(tenant: string, collection: string, id: string): Promise<StoredRecord | undefined>;
  /** The next value of the tenant's counter `name`, from 1; atomic across replicas (event and job order). */
  nextSequence(tenant: string, name: string): Promise<number>;
  /** The ids of every tenant that has state in the store (the clock ticker's list across replicas). */
  tenants(): Promise<string[]>;

  // The tenant's bounded logs (the client judge's requests and deliveries): outside the snapshot state,
  // so an import or a clear of the tenant leaves them; only clearLogs forgets them.
  /**
   * Appends `entry` (the caller's JSON text) to the tenant's log `log`, numbered from the tenant's log
   * sequence (one for all its logs, so entries of two logs compare in order) in the order the appends
   * reach the store. Past `bounds` the oldest entries go, counted in `dropped`; an entry larger than
   * `bounds.size` alone is dropped at once. Returns the entry's number.
   */
  appendLog(tenant: string, log: string, entry: string, bounds: LogBounds): Promise<number>;
  /** The entries of `log` numbered after `after`, oldest first, at most `limit`; and how many were dropped. */
  readLog(tenant: string, log: string, after: number, limit: number): Promise<LogPage>;
  /** Forgets every log of the tenant and starts their numbering again from 1. */
  clearLogs(tenant: string): Promise<void>;

  /** Adds a job to the tenant's schedule (jobs are data: see JobRecord). Same id replaces. */
  addJob(tenant: string, job: JobRecord): Promise<void>;
  /**
   * Atomically removes and returns the tenant's earliest job due at or before `until` (ties: by `order`),
   * so that a job runs on one replica only, once.
   */
  claimDueJob(tenant: string, until: number): Promise<JobRecord | undefined>;
  /** The tenant's next `limit` jobs, soonest first (the control API and the dashboard show them). */
  upcomingJobs(tenant: string, limit: number): Promise<JobRecord[]>;
  countJobs(tenant: string): Promise<number>;
  /** Forgets the tenant's jobs (a clock reset). */
  clearJobs(tenant: string): Promise<void>;

  /**
   * Atomically puts `record` only when the stored record with its id meets `when` (compare-and-set: of
   * two replicas changing one record from the same state, one wins and the other reads the new state).
   */
  putIf(
    tenant: string,
    collection: string,
    record: StoredRecord,
    when: PutCondition,
  ): Promise<ConditionalPut>;
  /**
   * Atomically removes a record with everything that goes with it, or nothing: of several replicas
   * removing one record at once, exactly one gets `removed` and the others `missing`; a window given is
   * counted only by the one that removes (DELETE-RATE-LIMIT: one slot per deletion).
   */
  removeRecord(tenant: string, removal: RemovalRequest): Promise<Removal>;

  /**
   * Atomically leases the tenant's earliest due job (at or before `until`, ties by `order`) that no
   * live lease holds, to `owner`, for the store's lease length (measured on the store's own time:
   * leases are liveness, never a rule). The job stays in the schedule until `finishJob`.
   */
  leaseDueJob(tenant: string, until: number, owner: string): Promise<LeasedJob | undefined>;
  /** Removes a leased job that ran; false when the lease was lost (expired and taken, or the job replaced). */
  finishJob(tenant: string, lease: JobLease): Promise<boolean>;
  /** Hands a leased job back, due as before (a replica stopping); false when the lease was lost. */
  releaseJob(tenant: string, lease: JobLease): Promise<boolean>;
  /** Extends a lease by the lease length from now (a job that runs long); false when it was lost. */
  renewJob(tenant: string, lease: JobLease): Promise<boolean>;
  /** Removes the job with this id, leased or not; false when there is none. */
  cancelJob(tenant: string, id: string): Promise<boolean>;
}

/**
 * The stored record (by the new record's id) meets the condition when its top-level `field` equals
 * `equals`; a missing record or member counts as null (so `{ field: 'id', equals: null }` is "absent").
 */
export interface PutCondition {
  field: string;
  equals: string | number | boolean | null;
}

export interface ConditionalPut {
  put: boolean;
  /** The record stored before the call (undefined: none). */
  before: StoredRecord | undefined;
}

export interface RemovalRequest {
  collection: string;
  id: string;
  /** Collections whose records of `link` = the removed id go in the same step (a link's data). */
  cascade?: readonly string[];
  /** A sliding window counted in the same step, only when the record exists (see hitSlidingWindow). */
  window?: { key: string; now: number; windowMs: number; limit: number };
  /** A record put in the same step when the removal happens (a job's note that it made it). */
  mark?: { collection: string; record: StoredRecord };
}

export type Removal =
  | { outcome: 'removed'; record: StoredRecord }
  | { outcome: 'missing' }
  | { outcome: 'refused'; hit: SlidingWindowHit };

/** A job's lease: `token` fences it (a later lease of the same job has a greater one). */
export interface JobLease {
  id: string;
  token: number;
  owner: string;
}

export interface LeasedJob {
  job: JobRecord;
  lease: JobLease;
}

/** How long a job lease lasts unless renewed, by default: ample for one job, short enough to recover. */
export const DEFAULT_JOB_LEASE_MS = 30_000;

/**
 * Scheduled work as data, so any replica can run it: due `at` (milliseconds on the tenant's virtual
 * clock), `kind` names the runner (core/job-kinds.ts), `args` is its JSON input, `order` breaks
 * ties between jobs due at the same instant (from `nextSequence`).
 */
export interface JobRecord {
  id: string;
  at: number;
  order: number;
  kind: string;
  args: Record<string, unknown>;
  /** What the job acts on, when one thing (the event a webhook retry re-sends). */
  subject?: string;
}

export interface TenantSnapshot {
  collections: Record<string, StoredRecord[]>;
  windows: Record<string, number[]>;
}

/** A log keeps its latest `entries` entries whose sizes add up to at most `size` (characters; bytes on Redis). */
export interface LogBounds {
  readonly entries: number;
  readonly size: number;
}

export interface LoggedEntry {
  readonly seq: number;
  readonly entry: string;
}

export interface LogPage {
  readonly entries: LoggedEntry[];
  /** Entries the bounds removed since the log was last cleared. */
  readonly dropped: number;
}
