/** The virtual clock's types: its jobs, its state as stored, its backing and its moves. */

/** Scheduled work as data: due `at`, the runner's `kind` and its JSON `args`. */
export interface QueuedJob {
  at: number;
  kind: string;
  args: Record<string, unknown>;
  /** What the job acts on, when one thing: the event a webhook retry re-sends. */
  subject?: string;
  /**
   * The job's id: given by the scheduler when scheduling again must replace, not add (a job run twice
   * schedules its follow-up once); else the store numbers it. Always set on a job being run.
   */
  id?: string;
}

/** A job as the control API shows it: when it falls due and what it does (`GET /_ofkit/clock/`). */
export interface JobInfo {
  at: number;
  kind: string;
  subject?: string;
}

export interface ClockState {
  now: number;
  frozen: boolean;
}

/** What the clock keeps where every replica reads it: its offset from real time or frozen instant. */
export interface StoredClock {
  offset: number;
  frozenAt: number | null;
}

/** The stored clock and its version (null: never written), which every write increments. */
export interface VersionedClock extends StoredClock {
  version: number | null;
}

/** Where a clock's state and jobs live (the tenant's store: clock/tenant-clock.ts). */
export interface ClockBacking {
  loadState(): Promise<VersionedClock | undefined>;
  /** Writes `state` only if the stored version is still `version` (compare-and-set); true if written. */
  saveState(state: StoredClock, version: number | null): Promise<boolean>;
  addJob(job: QueuedJob): Promise<void>;
  /**
   * The earliest job due at or before `until` that no replica is running, now held by this one until
   * `run` is done with it (the job stays scheduled meanwhile).
   */
  claimDue(until: number): Promise<QueuedJob | undefined>;
  upcoming(limit: number): Promise<QueuedJob[]>;
  count(): Promise<number>;
  clear(): Promise<void>;
  /** Runs a claimed job, then marks it done. */
  run(job: QueuedJob): Promise<void>;
}

/** One move of the clock: to an instant or by an amount (neither: where it stands), frozen or not. */
export interface ClockMove {
  to?: number;
  by?: number;
  /** true: frozen before the move (it stops exactly there); false: unfrozen after it. */
  frozen?: boolean;
}

/** What a move did: how many jobs ran, and the clock it wrote. */
export interface MoveOutcome {
  count: number;
  state: ClockState;
}
