/**
 * A tenant's virtual clock. It follows real time (plus an offset) until frozen; it can be set or
 * advanced. Jobs scheduled on it run when they fall due: advancing runs every due job in time order,
 * with the clock standing at each job's instant while it runs (DESIGN.md, State, time, tenants).
 */

export type Job = () => void | Promise<void>;

/** A macrotask turn: lets pending I/O (other tenants' requests) run. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many of the jobs a move ran `runDue` collects (a move across years runs millions). */
export const MAX_COLLECTED = 100;

interface ScheduledJob {
  at: number;
  sequence: number;
  run: Job;
  kind: string;
  subject?: string;
}

/** A job as the control API shows it: when it falls due and what it does (`GET /_ofkit/clock/`). */
export interface JobInfo {
  at: number;
  kind: string;
  /** What the job acts on, when one thing: the event a webhook retry re-sends. */
  subject?: string;
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

  /** `kind` names the job for the dashboard and the control API (`webhook retry`, `daily refresh`...). */
  schedule(at: number, run: Job, kind = 'job', subject?: string): void {
    this.jobs.push({ at, sequence: this.sequence++, run, kind, ...(subject !== undefined && { subject }) });
    this.jobs.sort((a, b) => a.at - b.at || a.sequence - b.sequence);
  }

  pendingJobs(): number {
    return this.jobs.length;
  }

  /** The next `limit` jobs, soonest first. */
  upcoming(limit: number): JobInfo[] {
    return this.jobs.slice(0, limit).map(({ at, kind, subject }) => ({ at, kind, subject }));
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

  /** Runs the due jobs in order; `ran`, when given, collects the first MAX_COLLECTED of them. */
  private async runJobs(until: number, ran?: JobInfo[]): Promise<number> {
    this.beforeRun(until);
    let count = 0;
    for (let next = this.jobs[0]; next !== undefined && next.at <= until; next = this.jobs[0]) {
      // Fairness: a move over many due jobs (a year of daily refreshes) lets other requests in
      // between two jobs instead of holding the event loop until the last one.
      if (count > 0) {
        await yieldToOthers();
        if (this.jobs[0] !== next) continue;
      }
      this.jobs.shift();
      if (next.at > this.now()) this.moveTo(next.at);
      await next.run();
      if (ran && ran.length < MAX_COLLECTED)
        ran.push({ at: next.at, kind: next.kind, subject: next.subject });
      count += 1;
    }
    return count;
  }

  /**
   * Runs every job due at or before `until` (default: now, when its turn comes), in order; returns how
   * many ran. `ran` collects which (the control API shows the jobs a move ran).
   */
  runDue(until?: number, ran?: JobInfo[]): Promise<number> {
    return this.exclusive(() => this.runJobs(until ?? this.now(), ran));
  }

  /** Moves forward by `milliseconds`, running each job that falls due on the way. */
  advance(milliseconds: number, ran?: JobInfo[]): Promise<number> {
    return this.exclusive(() => this.moveRunning(this.now() + milliseconds, ran));
  }

  /** Sets the time; forward moves run the jobs that fall due, backward moves run none. */
  setTo(instant: number, ran?: JobInfo[]): Promise<number> {
    return this.exclusive(() => this.moveRunning(instant, ran));
  }

  private async moveRunning(instant: number, ran?: JobInfo[]): Promise<number> {
    const count = instant > this.now() ? await this.runJobs(instant, ran) : 0;
    this.moveTo(instant);
    return count;
  }

  /** Forgets every job and returns to real time. */
  reset(): void {
    this.jobs = [];
    this.offset = 0;
    this.frozenAt = undefined;
  }
}
