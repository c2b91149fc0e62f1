/** The tenants of one simulator process, each created on first use from the seed and its API key id. */
import { JobLeases, type KeepWork } from '../clock/job-leases.js';
import { storeClockBacking, TenantClock } from '../clock/tenant-clock.js';
import type { QueuedJob } from '../clock/virtual-clock.js';
import { createIds, createRandom } from '../ids/seeded-ids.js';
import type { Store } from '../store/store.js';
import type { RaiseEvent } from './events.js';
import type { Environment } from './keys.js';
import { type RulePolicy, specRulePolicy } from './rule-policy.js';
import type { TenantRuntime, TenantSlot } from './tenant.js';
import { scopeStore } from './tenant-store.js';

export interface TenantRegistryOptions {
  seed: string;
  store: Store;
  environment: Environment;
  realTime: () => number;
  /** The rules' numbers and choices; default: the specification's (the bundled document's). */
  policy?: RulePolicy;
  /** The tenant's event emitter (the webhook emitter); without one, raised events go nowhere. */
  emitterFor?: (tenant: TenantRuntime) => RaiseEvent;
  /** Runs a job of a tenant's clock, leased from the store (JobKinds.run). */
  runJob: (tenant: TenantRuntime, job: QueuedJob, keep: KeepWork) => Promise<void>;
  /**
   * This process's number among the replicas sharing the store (from 1): each draws its ids from its own
   * stream, so two replicas never mint the same id; replica 1's stream is the single process's.
   */
  replica?: number;
}

/**
 * The tenants by id, created on first use; `all()` lists those this process created so far, `known()`
 * every tenant with state in the store (the clock ticker's: another replica's tenants have jobs too).
 */
export interface TenantRegistry {
  (tenantId: string): TenantRuntime;
  all(): TenantRuntime[];
  known(): Promise<TenantRuntime[]>;
  /**
   * Takes no more jobs, lets the running ones finish for `graceMs`, then hands the rest back to the
   * store (another replica runs them): a process stopping gracefully holds no job.
   */
  stopJobs(graceMs: number): Promise<void>;
}

/** Creates each tenant's runtime on first use, its streams derived from the seed and the tenant id. */
export function createTenantRegistry(options: TenantRegistryOptions): TenantRegistry {
  const runtimes = new Map<string, TenantRuntime>();
  const { store } = options;
  const policy = options.policy ?? specRulePolicy();
  const replicaStream = (options.replica ?? 1) === 1 ? '' : `/replica-${options.replica}`;
  // Every tenant's jobs this process runs, leased in the store under this replica's name.
  const leases = new JobLeases(store, `replica ${options.replica ?? 1} (pid ${process.pid})`);
  const tenantFor = (tenantId: string): TenantRuntime => {
    const existing = runtimes.get(tenantId);
    if (existing) return existing;
    const random = createRandom(`${options.seed}/${tenantId}${replicaStream}`);
    const locals = new Map<TenantSlot<unknown>, unknown>();
    const runtime: TenantRuntime = {
      id: tenantId,
      environment: options.environment,
      clock: new TenantClock(
        options.realTime,
        storeClockBacking(store, tenantId, (job, keep) => options.runJob(runtime, job, keep), leases),
      ),
      ids: createIds(createRandom(`${options.seed}/${tenantId}/ids${replicaStream}`)),
      random,
      store: scopeStore(store, tenantId),
      policy,
      emit: () => undefined,
      local<T>(slot: TenantSlot<T>): T {
        if (!locals.has(slot)) locals.set(slot, slot.create());
        return locals.get(slot) as T;
      },
    };
    const emit = options.emitterFor?.(runtime);
    if (emit) runtime.emit = emit;
    runtimes.set(tenantId, runtime);
    return runtime;
  };
  const known = async () => {
    // Names starting with `_` are the simulator's own scopes (its replica counter), not tenants.
    const stored = (await options.store.tenants()).filter((id) => !id.startsWith('_'));
    const ids = new Set([...runtimes.keys(), ...stored]);
    return [...ids].map(tenantFor);
  };
  return Object.assign(tenantFor, {
    all: () => [...runtimes.values()],
    known,
    stopJobs: (graceMs: number) => leases.stop(graceMs),
  });
}
