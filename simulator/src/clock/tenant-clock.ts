/**
 * A tenant's clock over its store: the state under `_runtime/clock`, the jobs in the store's schedule,
 * each run by the runner of its kind. It tells its listeners when a reset forgot its jobs, so that
 * recurring jobs (the daily refresh, WEBHOOK-DAILY) can schedule themselves again; they hear of it when
 * the clock next runs jobs, with the instant it runs them up to: after a snapshot import (reset, then
 * set), the snapshot's time, so that no job of the days in between runs.
 */

import type { LeasedJob, Store, StoredRecord } from '../store/store.js';
import type { ClockBacking, QueuedJob, StoredClock, VersionedClock } from './clock-types.js';
import { JobLeases, type KeepWork } from './job-leases.js';
import { VirtualClock } from './virtual-clock.js';

/** The collection of the simulator's own per-tenant state (not part of the API's data). */
export const RUNTIME_COLLECTION = '_runtime';
const CLOCK_ID = 'clock';

export class TenantClock extends VirtualClock {
  private readonly resetListeners: ((from: number) => Promise<void>)[] = [];
  private resetPending = false;

  onReset(listener: (from: number) => Promise<void>): void {
    this.resetListeners.push(listener);
  }

  protected override afterReset(): void {
    this.resetPending = true;
  }

  protected override async beforeRun(until: number): Promise<void> {
    if (!this.resetPending) return;
    this.resetPending = false;
    for (const listener of this.resetListeners) await listener(until);
  }
}

/** The clock's state as its record in `_runtime`, read back (null version: a clock never written). */
function readClock(stored: StoredRecord | undefined): VersionedClock | undefined {
  if (!stored) return undefined;
  const version = typeof stored.version === 'number' ? stored.version : null;
  return { offset: Number(stored.offset), frozenAt: (stored.frozenAt as number | null) ?? null, version };
}

/**
 * The clock's backing in the tenant's store; `run` runs a job (by its kind's runner), `leases` holds
 * the jobs this process runs (one per process: a replica that stops hands them back).
 */
export function storeClockBacking(
  store: Store,
  tenantId: string,
  run: (job: QueuedJob, keep: KeepWork) => Promise<void>,
  leases = new JobLeases(store, 'this process'),
): ClockBacking {
  const claimed = new Map<QueuedJob, LeasedJob>();
  return {
    loadState: async () => readClock(await store.get(tenantId, RUNTIME_COLLECTION, CLOCK_ID)),
    async saveState(state: StoredClock, version: number | null) {
      const record = { id: CLOCK_ID, ...state, version: (version ?? 0) + 1 };
      const when = { field: 'version', equals: version };
      return (await store.putIf(tenantId, RUNTIME_COLLECTION, record, when)).put;
    },
    async addJob({ id, ...job }: QueuedJob) {
      const order = await store.nextSequence(tenantId, 'jobs');
      await store.addJob(tenantId, { ...job, id: id ?? `job-${order}`, order });
    },
    async claimDue(until) {
      const leased = await leases.lease(tenantId, until);
      if (!leased) return undefined;
      const { id, at, kind, args, subject } = leased.job;
      const job: QueuedJob = { id, at, kind, args, ...(subject !== undefined && { subject }) };
      claimed.set(job, leased);
      return job;
    },
    upcoming: (limit) => store.upcomingJobs(tenantId, limit),
    count: () => store.countJobs(tenantId),
    clear: () => store.clearJobs(tenantId),
    async run(job) {
      const leased = claimed.get(job);
      claimed.delete(job);
      if (!leased) throw new Error(`run of a job not claimed here: ${job.kind} ${job.id ?? ''}`);
      await leases.run(tenantId, leased, (keep) => run(job, keep));
    },
  };
}
