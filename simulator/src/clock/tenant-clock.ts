/**
 * A tenant's clock over its store: the state under `_runtime/clock`, the jobs in the store's schedule,
 * each run by the runner of its kind. It tells its listeners when a reset forgot its jobs, so that
 * recurring jobs (the daily refresh, WEBHOOK-DAILY) can schedule themselves again; they hear of it when
 * the clock next runs jobs, with the instant it runs them up to: after a snapshot import (reset, then
 * set), the snapshot's time, so that no job of the days in between runs.
 */

import type { Store } from '../store/store.js';
import { type ClockBacking, type QueuedJob, type StoredClock, VirtualClock } from './virtual-clock.js';

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

/** The clock's backing in the tenant's store; `run` runs a claimed job (by its kind's runner). */
export function storeClockBacking(
  store: Store,
  tenantId: string,
  run: (job: QueuedJob) => Promise<void>,
): ClockBacking {
  return {
    async loadState() {
      const stored = await store.get(tenantId, RUNTIME_COLLECTION, CLOCK_ID);
      return stored
        ? { offset: Number(stored.offset), frozenAt: (stored.frozenAt as number | null) ?? null }
        : undefined;
    },
    saveState: (state: StoredClock) => store.put(tenantId, RUNTIME_COLLECTION, { id: CLOCK_ID, ...state }),
    async addJob(job: QueuedJob) {
      const order = await store.nextSequence(tenantId, 'jobs');
      await store.addJob(tenantId, { id: `job-${order}`, order, ...job });
    },
    async claimDue(until) {
      const claimed = await store.claimDueJob(tenantId, until);
      if (!claimed) return undefined;
      const { at, kind, args, subject } = claimed;
      return { at, kind, args, ...(subject !== undefined && { subject }) };
    },
    upcoming: (limit) => store.upcomingJobs(tenantId, limit),
    count: () => store.countJobs(tenantId),
    clear: () => store.clearJobs(tenantId),
    run,
  };
}
