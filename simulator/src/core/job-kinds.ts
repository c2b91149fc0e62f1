/**
 * The runners of scheduled work, by kind. A job is data (kind, JSON arguments, due time) kept in the
 * tenant's store, so that whichever replica claims it runs it; the runner is code every replica has.
 * Each part of the simulator defines its kinds when it is built (handlers, webhooks, payments).
 */
import type { QueuedJob } from '../clock/virtual-clock.js';
import type { TenantRuntime } from './tenant.js';

export type JobArgs = Record<string, unknown>;
export type JobRunner = (tenant: TenantRuntime, args: JobArgs) => Promise<void>;

export class JobKinds {
  private readonly runners = new Map<string, JobRunner>();

  /** Registers `kind`; a kind defined twice is a programming mistake (two meanings for one job). */
  define(kind: string, runner: JobRunner): void {
    if (this.runners.has(kind)) throw new Error(`Job kind defined twice: ${kind}`);
    this.runners.set(kind, runner);
  }

  /** Runs a claimed job of the tenant by its kind's runner. */
  async run(tenant: TenantRuntime, job: QueuedJob): Promise<void> {
    const runner = this.runners.get(job.kind);
    // A job of a kind this replica does not know (an older version beside a newer one) is dropped
    // loudly rather than left to block the schedule.
    if (!runner) {
      console.error(`ofkit: no runner for job kind "${job.kind}" (tenant ${tenant.id}); dropped`);
      return;
    }
    await runner(tenant, job.args);
  }
}
