/**
 * A tenant's virtual clock. It follows real time (plus an offset) until frozen; it can be set or
 * advanced. Jobs scheduled on it run when they fall due: advancing runs every due job in time order,
 * with the clock standing at each job's instant while it runs (DESIGN.md, State, time, tenants).
 */

export type Job = () => void | Promise<void>;

/** A macrotask turn: lets pending I/O (other tenants' requests) run. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

interface ScheduledJob {
  at: number;
  sequence: number;
  run: Job;
}

export interface ClockState {
  now: number;
  frozen: boolean;
}

export class VirtualClock {
  private offset = 0;
  private frozenAt: number | undefined;
  private jobs: ScheduledJob[] = [];
  private sequence = 0;
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly realTime: () => number) {}

  /** Milliseconds since the epoch on this clock. */
  now(): number {
    return this.frozenAt ?? this.realTime() + this.offset;
  }

  state(): ClockState {
    return { now: this.now(), frozen: this.frozenAt !== undefined };
  }

  freeze(): void {
    this.frozenAt = this.now();
  }

  unfreeze(): void {
    if (this.frozenAt === undefined) return;
    this.offset = this.frozenAt - this.realTime();
    this.frozenAt = undefined;
  }

  /** Puts the clock at `instant` without running jobs (used by set, import, and while running jobs). */
  private moveTo(instant: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = instant;
    else this.offset = instant - this.realTime();
  }

  schedule(at: number, run: Job): void {
    this.jobs.push({ at, sequence: this.sequence++, run });
    this.jobs.sort((a, b) => a.at - b.at || a.sequence - b.sequence);
  }

  pendingJobs(): number {
    return this.jobs.length;
  }

  /**
   * One run or move at a time: a second caller (the tenant's next request, the ticker) waits for the
   * first, so jobs never run twice or out of order while a long move yields to other tenants.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Called before jobs run up to `until` (TenantClock tells its reset listeners here). */
  protected beforeRun(_until: number): void {}

  private async runJobs(until: number): Promise<number> {
    this.beforeRun(until);
    let ran = 0;
    for (let next = this.jobs[0]; next !== undefined && next.at <= until; next = this.jobs[0]) {
      // Fairness: a move over many due jobs (a year of daily refreshes) lets other requests in
      // between two jobs instead of holding the event loop until the last one.
      if (ran > 0) {
        await yieldToOthers();
        if (this.jobs[0] !== next) continue;
      }
      this.jobs.shift();
      if (next.at > this.now()) this.moveTo(next.at);
      await next.run();
      ran += 1;
    }
    return ran;
  }

  /** Runs every job due at or before `until` (default: now, when its turn comes), in order; returns how many ran. */
  runDue(until?: number): Promise<number> {
    return this.exclusive(() => this.runJobs(until ?? this.now()));
  }

  /** Moves forward by `milliseconds`, running each job that falls due on the way. */
  advance(milliseconds: number): Promise<number> {
    return this.exclusive(() => this.moveRunning(this.now() + milliseconds));
  }

  /** Sets the time; forward moves run the jobs that fall due, backward moves run none. */
  setTo(instant: number): Promise<number> {
    return this.exclusive(() => this.moveRunning(instant));
  }

  private async moveRunning(instant: number): Promise<number> {
    const ran = instant > this.now() ? await this.runJobs(instant) : 0;
    this.moveTo(instant);
    return ran;
  }

  /** Forgets every job and returns to real time. */
  reset(): void {
    this.jobs = [];
    this.offset = 0;
    this.frozenAt = undefined;
  }
}
