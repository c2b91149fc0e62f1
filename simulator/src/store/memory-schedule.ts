/**
 * One tenant's jobs in the memory store: soonest first, each leased to at most one holder at a time.
 * Every method changes state without an await: atomic on one event loop.
 */
import type { JobLease, JobRecord, LeasedJob } from './store.js';

const byDueTime = (a: JobRecord, b: JobRecord) => a.at - b.at || a.order - b.order;

interface HeldLease {
  token: number;
  owner: string;
  /** On the store's time (liveness), never the virtual clock. */
  expires: number;
}

/** A lease about to be given: its holder, the store's time, its length and where its token comes from. */
export interface NewLease {
  owner: string;
  now: number;
  ms: number;
  token: () => number;
}

export class MemorySchedule {
  /** Soonest first (byDueTime); jobs are few (a tenant's pending retries, expiries, daily refresh). */
  private jobs: JobRecord[] = [];
  private readonly leases = new Map<string, HeldLease>();

  /** Same id replaces (and forgets the old job's lease: its holder can no longer finish it). */
  add(job: JobRecord): void {
    this.remove(job.id);
    // Insert in order: a binary search would do, but a tenant holds a handful of jobs.
    const index = this.jobs.findIndex((other) => byDueTime(job, other) < 0);
    if (index === -1) this.jobs.push(job);
    else this.jobs.splice(index, 0, job);
  }

  remove(id: string): boolean {
    const before = this.jobs.length;
    this.jobs = this.jobs.filter((job) => job.id !== id);
    this.leases.delete(id);
    return this.jobs.length < before;
  }

  /** Removes and returns the earliest due job, leased or not. */
  claim(until: number): JobRecord | undefined {
    const first = this.jobs[0];
    if (!first || first.at > until) return undefined;
    this.remove(first.id);
    return first;
  }

  /** The earliest due job no live lease holds, leased to `owner` until `now + ms` (store time). */
  lease(until: number, { owner, now, ms, token }: NewLease): LeasedJob | undefined {
    for (const job of this.jobs) {
      if (job.at > until) return undefined;
      const held = this.leases.get(job.id);
      if (held && held.expires > now) continue;
      const lease = { id: job.id, token: token(), owner };
      this.leases.set(job.id, { token: lease.token, owner, expires: now + ms });
      return { job, lease };
    }
    return undefined;
  }

  /** True while `lease` is the job's latest lease (expired or not: nobody took it since). */
  private holds(lease: JobLease): boolean {
    return this.leases.get(lease.id)?.token === lease.token;
  }

  finish(lease: JobLease): boolean {
    return this.holds(lease) && this.remove(lease.id);
  }

  release(lease: JobLease): boolean {
    if (!this.holds(lease)) return false;
    this.leases.delete(lease.id);
    return true;
  }

  renew(lease: JobLease, now: number, leaseMs: number): boolean {
    const held = this.leases.get(lease.id);
    if (held?.token !== lease.token) return false;
    held.expires = now + leaseMs;
    return true;
  }

  upcoming(limit: number): JobRecord[] {
    return this.jobs.slice(0, Math.max(0, limit));
  }

  count(): number {
    return this.jobs.length;
  }

  clear(): void {
    this.jobs = [];
    this.leases.clear();
  }
}
