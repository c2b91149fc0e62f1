/**
 * A tenant's virtual clock. It follows real time (plus an offset) until frozen; it can be set or
 * advanced. Jobs scheduled on it run when they fall due: advancing runs every due job in time order,
 * with the clock standing at each job's instant while it runs (DESIGN.md, State, time, tenants).
 */

export type Job = () => void | Promise<void>;

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
   * Runs every job due at or before `until` (default: now), in order; returns how many ran. `ran`,
   * when given, collects the first MAX_COLLECTED of them (the control API shows which jobs a move ran).
   */
  async runDue(until = this.now(), ran?: JobInfo[]): Promise<number> {
    let count = 0;
    for (let next = this.jobs[0]; next !== undefined && next.at <= until; next = this.jobs[0]) {
      this.jobs.shift();
      if (next.at > this.now()) this.moveTo(next.at);
      await next.run();
      if (ran && ran.length < MAX_COLLECTED)
        ran.push({ at: next.at, kind: next.kind, subject: next.subject });
      count += 1;
    }
    return count;
  }

  /** Moves forward by `milliseconds`, running each job that falls due on the way. */
  async advance(milliseconds: number, ran?: JobInfo[]): Promise<number> {
    return this.setTo(this.now() + milliseconds, ran);
  }

  /** Sets the time; forward moves run the jobs that fall due, backward moves run none. */
  async setTo(instant: number, ran?: JobInfo[]): Promise<number> {
    const count = instant > this.now() ? await this.runDue(instant, ran) : 0;
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
