/**
 * The jobs one process holds: each due job is leased in the store (it stays scheduled until it is
 * finished), its lease renewed while it runs, and finished once its runner returns. A job whose runner
 * met a store failure is handed back (another replica, or this one, runs it again: at least once); a
 * process that stops hands back what it still holds, and one that dies holds nothing past its leases'
 * expiry (measured on the store's own time: liveness, never a rule).
 */

import { DEFAULT_JOB_LEASE_MS, type JobLease, type LeasedJob, type Store } from '../store/store.js';
import { isStoreFailure } from '../store/store-failure.js';

interface Held {
  tenant: string;
  lease: JobLease;
  /** Resolves when the runner is done (finished, or handed back). */
  done: Promise<void>;
}

/** Work a job's runner started and did not await: the job stays leased until it settles. */
export type KeepWork = (work: Promise<unknown>) => void;

/** Renewals per lease length: a lease survives two missed renewals. */
const RENEWALS_PER_LEASE = 3;

export class JobLeases {
  private readonly held = new Set<Held>();
  private stopping = false;

  /** `owner` names this process in the store's leases (for a person reading them: tokens fence). */
  constructor(
    private readonly store: Store,
    readonly owner: string,
  ) {}

  /** The tenant's next due job, leased to this process; none once the process is stopping. */
  lease(tenant: string, until: number): Promise<LeasedJob | undefined> {
    if (this.stopping) return Promise.resolve(undefined);
    return this.store.leaseDueJob(tenant, until, this.owner);
  }

  /**
   * Runs a leased job: renewed while `work` runs, finished after it, handed back on a store failure.
   * Work the runner started without awaiting it and gave to `keep` (a webhook attempt) holds the lease
   * until it settles, in the background: the clock moves on, and a replica that dies meanwhile leaves
   * the job to another.
   */
  async run(tenant: string, leased: LeasedJob, work: (keep: KeepWork) => Promise<void>): Promise<void> {
    const leaseMs = this.store.jobLeaseMs ?? DEFAULT_JOB_LEASE_MS;
    const renewal = setInterval(() => {
      // A renewal that fails (the store is down) is retried at the next one; the lease may lapse.
      this.store.renewJob(tenant, leased.lease).catch(() => undefined);
    }, leaseMs / RENEWALS_PER_LEASE);
    renewal.unref();
    let finished!: () => void;
    const held: Held = { tenant, lease: leased.lease, done: new Promise((resolve) => (finished = resolve)) };
    this.held.add(held);
    const settle = async (outcome: { failure?: unknown }) => {
      try {
        if (!('failure' in outcome)) return await this.store.finishJob(tenant, leased.lease);
        // A job that met a store failure runs again (its effects are idempotent); one that failed by
        // itself would fail again: it is dropped, loudly, as before leases.
        if (isStoreFailure(outcome.failure))
          await this.store.releaseJob(tenant, leased.lease).catch(() => false);
        else await this.store.finishJob(tenant, leased.lease).catch(() => false);
      } finally {
        clearInterval(renewal);
        this.held.delete(held);
        finished();
      }
    };
    const kept: Promise<unknown>[] = [];
    try {
      await work((promise) => void kept.push(promise));
    } catch (error) {
      await settle({ failure: error });
      throw error;
    }
    if (kept.length === 0) {
      await settle({});
      return;
    }
    void Promise.allSettled(kept)
      .then((results) => {
        const failed = results.find((result) => result.status === 'rejected');
        return settle(failed ? { failure: failed.reason } : {});
      })
      .catch(() => undefined);
  }

  /**
   * Takes no more jobs, lets the running ones finish for `graceMs`, then hands back the leases still
   * held (their jobs run again elsewhere; a runner still going here changes nothing twice).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.all([...this.held].map((held) => held.done)), grace]);
    clearTimeout(timer);
    await Promise.all(
      [...this.held].map((held) => this.store.releaseJob(held.tenant, held.lease).catch(() => false)),
    );
  }

  /** How many jobs this process runs now. */
  get running(): number {
    return this.held.size;
  }
}
