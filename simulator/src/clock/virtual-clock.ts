/**
 * A tenant's virtual clock. It follows real time (plus an offset) until frozen; it can be set or
 * advanced. Jobs scheduled on it run when they fall due: advancing runs every due job in time order,
 * with the clock standing at each job's instant while it runs (DESIGN.md, State, time, tenants).
 */

export type Job = () => void | Promise<void>;

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

  /** Runs every job due at or before `until` (default: now), in order; returns how many ran. */
  async runDue(until = this.now()): Promise<number> {
    let ran = 0;
    for (let next = this.jobs[0]; next !== undefined && next.at <= until; next = this.jobs[0]) {
      this.jobs.shift();
      if (next.at > this.now()) this.moveTo(next.at);
      await next.run();
      ran += 1;
    }
    return ran;
  }

  /** Moves forward by `milliseconds`, running each job that falls due on the way. */
  async advance(milliseconds: number): Promise<number> {
    return this.setTo(this.now() + milliseconds);
  }

  /** Sets the time; forward moves run the jobs that fall due, backward moves run none. */
  async setTo(instant: number): Promise<number> {
    const ran = instant > this.now() ? await this.runDue(instant) : 0;
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
