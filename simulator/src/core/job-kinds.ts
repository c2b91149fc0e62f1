/**
 * The runners of scheduled work, by kind. A job is data (kind, JSON arguments, due time) kept in the
 * tenant's store, so that whichever replica claims it runs it; the runner is code every replica has.
 * Each part of the simulator defines its kinds when it is built (handlers, webhooks, payments).
 */
import type { KeepWork } from '../clock/job-leases.js';
import type { QueuedJob } from '../clock/virtual-clock.js';
import type { TenantRuntime } from './tenant.js';

export type JobArgs = Record<string, unknown>;

/** The job a runner runs: its id (the same every time the job runs) and when it fell due. */
export interface RunningJob {
  id: string;
  at: number;
  /**
   * Work the runner starts and does not await (a webhook attempt, network time): the job stays leased
   * to this replica until it settles, so a replica that dies meanwhile leaves the job to another.
   */
  keep: KeepWork;
}

/**
 * A job's runner. A job runs at least once: a replica that dies while running it leaves it to another,
 * which runs it again. So a runner's effects must be idempotent: it checks in the store, atomically
 * with its effect where two runs could race, whether its effect already happened (`job.id` names the
 * run's effects: a follow-up scheduled under an id derived from it is scheduled once).
 */
export type JobRunner = (tenant: TenantRuntime, args: JobArgs, job: RunningJob) => Promise<void>;

export class JobKinds {
  private readonly runners = new Map<string, JobRunner>();

  /** Registers `kind`; a kind defined twice is a programming mistake (two meanings for one job). */
  define(kind: string, runner: JobRunner): void {
    if (this.runners.has(kind)) throw new Error(`Job kind defined twice: ${kind}`);
    this.runners.set(kind, runner);
  }

  /** Runs a leased job of the tenant by its kind's runner. */
  async run(tenant: TenantRuntime, job: QueuedJob, keep: KeepWork = () => undefined): Promise<void> {
    const runner = this.runners.get(job.kind);
    // A job of a kind this replica does not know (an older version beside a newer one) is dropped
    // loudly rather than left to block the schedule.
    if (!runner) {
      console.error(`ofkit: no runner for job kind "${job.kind}" (tenant ${tenant.id}); dropped`);
      return;
    }
    await runner(tenant, job.args, { id: job.id ?? '', at: job.at, keep });
  }
}
