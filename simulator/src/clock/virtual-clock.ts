/**
 * A tenant's virtual clock. It follows real time (plus an offset) until frozen; it can be set or
 * advanced. Jobs scheduled on it run when they fall due: advancing runs every due job in time order,
 * with the clock standing at each job's instant while it runs, so every time-based rule reads the instant it was due at.
 *
 * Its state and its jobs live in a ClockBacking (the tenant's store), not in this object: jobs are data
 * (a kind and JSON arguments) that any replica can claim and run once, and every replica reads the same
 * offset and frozen instant before it runs jobs or moves the time.
 */

/** A macrotask turn: lets pending I/O (other tenants' requests) run. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many of the jobs a move ran `runDue` collects (a move across years runs millions). */
export const MAX_COLLECTED = 100;

/** Scheduled work as data: due `at`, the runner's `kind` and its JSON `args`. */
export interface QueuedJob {
  at: number;
  kind: string;
  args: Record<string, unknown>;
  /** What the job acts on, when one thing: the event a webhook retry re-sends. */
  subject?: string;
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

/** Where a clock's state and jobs live (the tenant's store: clock/tenant-clock.ts). */
export interface ClockBacking {
  loadState(): Promise<StoredClock | undefined>;
  saveState(state: StoredClock): Promise<void>;
  addJob(job: QueuedJob): Promise<void>;
  /** Removes and returns the earliest job due at or before `until`: one replica gets it, once. */
  claimDue(until: number): Promise<QueuedJob | undefined>;
  upcoming(limit: number): Promise<QueuedJob[]>;
  count(): Promise<number>;
  clear(): Promise<void>;
  run(job: QueuedJob): Promise<void>;
}

const toInfo = ({ at, kind, subject }: QueuedJob): JobInfo => ({
  at,
  kind,
  ...(subject !== undefined && { subject }),
});

export class VirtualClock {
  private offset = 0;
  private frozenAt: number | undefined;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly realTime: () => number,
    private readonly backing: ClockBacking,
  ) {}

  /** Milliseconds since the epoch on this clock (as last read from the backing). */
  now(): number {
    return this.frozenAt ?? this.realTime() + this.offset;
  }

  state(): ClockState {
    return { now: this.now(), frozen: this.frozenAt !== undefined };
  }

  freeze(): Promise<void> {
    return this.exclusive(async () => {
      await this.load();
      this.frozenAt = this.now();
      await this.save();
    });
  }

  unfreeze(): Promise<void> {
    return this.exclusive(async () => {
      await this.load();
      if (this.frozenAt === undefined) return;
      this.offset = this.frozenAt - this.realTime();
      this.frozenAt = undefined;
      await this.save();
    });
  }

  /** `kind` names the job's runner; `args` is its JSON input (core/job-kinds.ts). */
  schedule(at: number, kind: string, args: Record<string, unknown> = {}, subject?: string): Promise<void> {
    return this.backing.addJob({ at, kind, args, ...(subject !== undefined && { subject }) });
  }

  pendingJobs(): Promise<number> {
    return this.backing.count();
  }

  /** The next `limit` jobs, soonest first. */
  async upcoming(limit: number): Promise<JobInfo[]> {
    return (await this.backing.upcoming(limit)).map(toInfo);
  }

  /**
   * One run or move at a time in this process: a second caller (the tenant's next request, the ticker)
   * waits for the first, so a long move that yields to other tenants is not overtaken. Across replicas,
   * each job is claimed by one of them (ClockBacking.claimDue).
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Reads the state another replica may have changed; only inside a turn. */
  private async load(): Promise<void> {
    const stored = await this.backing.loadState();
    this.offset = stored?.offset ?? 0;
    this.frozenAt = stored?.frozenAt ?? undefined;
  }

  private save(): Promise<void> {
    return this.backing.saveState({ offset: this.offset, frozenAt: this.frozenAt ?? null });
  }

  /** Puts the clock at `instant` without running jobs. */
  private moveTo(instant: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = instant;
    else this.offset = instant - this.realTime();
  }

  /** Called before jobs run up to `until` (TenantClock tells its reset listeners here). */
  protected async beforeRun(_until: number): Promise<void> {}

  /** Runs the due jobs in order; `ran`, when given, collects the first MAX_COLLECTED of them. */
  private async runJobs(until: number, ran?: JobInfo[]): Promise<number> {
    await this.beforeRun(until);
    let count = 0;
    let moved = false;
    for (;;) {
      // Fairness: a move over many due jobs (a year of daily refreshes) lets other requests in
      // between two jobs instead of holding the event loop until the last one.
      if (count > 0) await yieldToOthers();
      const next = await this.backing.claimDue(until);
      if (next === undefined) break;
      if (next.at > this.now()) {
        this.moveTo(next.at);
        moved = true;
      }
      await this.backing.run(next);
      if (ran && ran.length < MAX_COLLECTED) ran.push(toInfo(next));
      count += 1;
    }
    if (moved) await this.save();
    return count;
  }

  /**
   * Runs every job due at or before `until` (default: now, when its turn comes), in order; returns how
   * many ran. `ran` collects which (the control API shows the jobs a move ran).
   */
  runDue(until?: number, ran?: JobInfo[]): Promise<number> {
    return this.exclusive(async () => {
      await this.load();
      return this.runJobs(until ?? this.now(), ran);
    });
  }

  /** Moves forward by `milliseconds`, running each job that falls due on the way. */
  advance(milliseconds: number, ran?: JobInfo[]): Promise<number> {
    return this.exclusive(async () => {
      await this.load();
      return this.moveRunning(this.now() + milliseconds, ran);
    });
  }

  /** Sets the time; forward moves run the jobs that fall due, backward moves run none. */
  setTo(instant: number, ran?: JobInfo[]): Promise<number> {
    return this.exclusive(async () => {
      await this.load();
      return this.moveRunning(instant, ran);
    });
  }

  private async moveRunning(instant: number, ran?: JobInfo[]): Promise<number> {
    const count = instant > this.now() ? await this.runJobs(instant, ran) : 0;
    this.moveTo(instant);
    await this.save();
    return count;
  }

  /** Forgets every job and returns to real time. */
  reset(): Promise<void> {
    return this.exclusive(async () => {
      await this.backing.clear();
      this.offset = 0;
      this.frozenAt = undefined;
      await this.save();
      this.afterReset();
    });
  }

  protected afterReset(): void {}
}
