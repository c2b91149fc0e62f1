/**
 * A tenant's virtual clock. It follows real time (plus an offset) until frozen; it can be set or
 * advanced. Jobs scheduled on it run when they fall due: advancing runs every due job in time order,
 * with the clock standing at each job's instant while it runs, so every time-based rule reads the instant it was due at.
 *
 * Its state and its jobs live in a ClockBacking (the tenant's store), not in this object: jobs are data
 * (a kind and JSON arguments) that any replica can lease and run, and every replica reads the same
 * offset and frozen instant before it runs jobs or moves the time. A move is one compare-and-set of the
 * stored clock: a move another replica made meanwhile makes this one start again from the clock it
 * left, so advances through different replicas add up, and the time goes back only when set back.
 */

import type { ClockBacking, ClockMove, ClockState, JobInfo, MoveOutcome, QueuedJob } from './clock-types.js';

/** A macrotask turn: lets pending I/O (other tenants' requests) run. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many of the jobs a move ran `runDue` collects (a move across years runs millions). */
export const MAX_COLLECTED = 100;

export type {
  ClockBacking,
  ClockMove,
  ClockState,
  JobInfo,
  MoveOutcome,
  QueuedJob,
  StoredClock,
  VersionedClock,
} from './clock-types.js';

const toInfo = ({ at, kind, subject }: QueuedJob): JobInfo => ({
  at,
  kind,
  ...(subject !== undefined && { subject }),
});

export class VirtualClock {
  private offset = 0;
  private frozenAt: number | undefined;
  /** The version of the stored clock last read (the compare-and-set's expected value). */
  private version: number | null = null;
  private turn: Promise<void> = Promise.resolve();
  /** The run up to "now" waiting for its turn, which callers arriving meanwhile share (runDue). */
  private pendingRunDue: { run: Promise<number>; turn: Promise<void> } | undefined;

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

  async freeze(): Promise<void> {
    await this.move({ frozen: true });
  }

  async unfreeze(): Promise<void> {
    await this.move({ frozen: false });
  }

  /**
   * `kind` names the job's runner; `args` is its JSON input (core/job-kinds.ts); `id`, when given,
   * replaces a job of that id instead of adding one.
   */
  schedule(
    at: number,
    kind: string,
    args: Record<string, unknown> = {},
    subject?: string,
    id?: string,
  ): Promise<void> {
    return this.backing.addJob({
      at,
      kind,
      args,
      ...(subject !== undefined && { subject }),
      ...(id !== undefined && { id }),
    });
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
    this.version = stored?.version ?? null;
  }

  /** Writes the state if nobody wrote it since it was read; false when somebody did (read again). */
  private async saveIfUnchanged(): Promise<boolean> {
    const state = { offset: this.offset, frozenAt: this.frozenAt ?? null };
    if (!(await this.backing.saveState(state, this.version))) return false;
    this.version = (this.version ?? 0) + 1;
    return true;
  }

  /** Puts the clock at `instant` without running jobs. */
  private moveTo(instant: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = instant;
    else this.offset = instant - this.realTime();
  }

  /** Called before jobs run up to `until` (TenantClock tells its reset listeners here). */
  protected async beforeRun(_until: number): Promise<void> {}

  /**
   * Runs the due jobs in order, the clock (this object) standing at each one's instant; `ran`, when
   * given, collects the first MAX_COLLECTED of them. Writes nothing: the caller writes the clock.
   */
  private async runJobs(until: number, ran?: JobInfo[]): Promise<{ count: number; moved: boolean }> {
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
    return { count, moved };
  }

  /**
   * Runs every job due at or before `until` (default: now, when its turn comes), in order; returns how
   * many ran. `ran` collects which (the control API shows the jobs a move ran).
   */
  runDue(until?: number, ran?: JobInfo[]): Promise<number> {
    if (until !== undefined || ran !== undefined) return this.exclusive(() => this.runDueNow(until, ran));
    // A run up to "now" that is queued and not yet started serves every caller that arrives before it
    // starts: it reads the time when it starts, after they came, so it runs every job due when each
    // came. Without this, a tenant's concurrent requests would each wait for a run of their own (two
    // store round trips each, one request at a time). Only while nothing else is queued behind it, so
    // a caller never overtakes a move it came after.
    const pending = this.pendingRunDue;
    if (pending !== undefined && pending.turn === this.turn) return pending.run;
    const run = this.exclusive(() => {
      if (this.pendingRunDue?.run === run) this.pendingRunDue = undefined;
      return this.runDueNow(undefined, undefined);
    });
    this.pendingRunDue = { run, turn: this.turn };
    return run;
  }

  private async runDueNow(until: number | undefined, ran: JobInfo[] | undefined): Promise<number> {
    await this.load();
    const { count, moved } = await this.runJobs(until ?? this.now(), ran);
    // A clock another replica moved meanwhile stays as it moved it (the jobs ran at their instants).
    if (moved && !(await this.saveIfUnchanged())) await this.load();
    return count;
  }

  /** Moves forward by `milliseconds`, running each job that falls due on the way. */
  async advance(milliseconds: number, ran?: JobInfo[]): Promise<number> {
    return (await this.move({ by: milliseconds }, ran)).count;
  }

  /** Sets the time; forward moves run the jobs that fall due, backward moves run none. */
  async setTo(instant: number, ran?: JobInfo[]): Promise<number> {
    return (await this.move({ to: instant }, ran)).count;
  }

  /**
   * One move as one compare-and-set of the stored clock, whichever replica makes it: read the clock,
   * run the jobs due on the way, write the clock if nobody wrote it meanwhile; else start again from
   * the clock as the other move left it (an advance then adds to it; the jobs already run stay run).
   * Returns the clock this move wrote: with moves racing, the one after this move.
   */
  move(change: ClockMove, ran?: JobInfo[]): Promise<MoveOutcome> {
    return this.exclusive(async () => {
      let count = 0;
      for (;;) {
        await this.load();
        // Frozen before the move, so that it stops exactly at the new instant.
        if (change.frozen === true && this.frozenAt === undefined) this.frozenAt = this.now();
        const from = this.now();
        const target = change.to ?? from + (change.by ?? 0);
        if (target > from) count += (await this.runJobs(target, ran)).count;
        this.moveTo(target);
        // Unfrozen after it, so that it follows real time from the new instant.
        if (change.frozen === false && this.frozenAt !== undefined) {
          this.offset = this.frozenAt - this.realTime();
          this.frozenAt = undefined;
        }
        if (await this.saveIfUnchanged()) return { count, state: this.state() };
      }
    });
  }

  /** Forgets every job and returns to real time. */
  reset(): Promise<void> {
    return this.exclusive(async () => {
      await this.backing.clear();
      do {
        await this.load();
        this.offset = 0;
        this.frozenAt = undefined;
      } while (!(await this.saveIfUnchanged()));
      this.afterReset();
    });
  }

  protected afterReset(): void {}
}
