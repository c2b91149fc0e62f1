/**
 * The runners of scheduled work, by kind. A job is data (kind, JSON arguments, due time) kept in the
 * tenant's store, so that whichever replica claims it runs it; the runner is code every replica has.
 * Each part of the simulator defines its kinds when it is built (handlers, webhooks, payments).
 */
import type { TenantRuntime } from './tenant-runtime.js';

export type JobArgs = Record<string, unknown>;
export type JobRunner = (tenant: TenantRuntime, args: JobArgs) => Promise<void>;

export class JobKinds {
  private readonly runners = new Map<string, JobRunner>();

  /** Registers `kind`; a kind defined twice is a programming mistake (two meanings for one job). */
  define(kind: string, runner: JobRunner): void {
    if (this.runners.has(kind)) throw new Error(`Job kind defined twice: ${kind}`);
    this.runners.set(kind, runner);
  }

  runner(kind: string): JobRunner | undefined {
    return this.runners.get(kind);
  }
}
