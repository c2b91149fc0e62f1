/**
 * A real-time ticker for `ofkit simulate`: a clock that follows real time runs its due jobs (webhook
 * retries, the daily refresh, async deletions) without waiting for the tenant's next request.
 */
import type { TenantRuntime } from './core/tenant.js';
import { isStoreFailure } from './store/store-failure.js';

/**
 * The tenants whose jobs the ticker runs: with replicas on one store, every tenant with state there
 * (a job another replica scheduled is claimed by whichever ticks first).
 */
export type TenantSource = () => Iterable<TenantRuntime> | Promise<Iterable<TenantRuntime>>;

/**
 * What a tick does with a failure: the store's (unreachable, no answer in time) is already reported by
 * the store and retried at the next tick (the job's lease was handed back, or lapses); any other is a
 * job that failed by itself, said once per failure.
 */
export type TickFailure = (error: unknown) => void;

const reportFailure: TickFailure = (error) => {
  if (isStoreFailure(error)) return;
  console.error(`ofkit: a scheduled job failed: ${(error as Error)?.stack ?? String(error)}`);
};

/**
 * Runs every known tenant's due jobs, skipping a tenant whose previous run has not finished. A tick
 * never rejects: a failure goes to `onFailure`, and the next tick tries again.
 */
export function createTick(tenants: TenantSource, onFailure = reportFailure): () => Promise<void> {
  const running = new Set<TenantRuntime>();
  const runTenant = async (tenant: TenantRuntime) => {
    running.add(tenant);
    try {
      await tenant.clock.runDue();
    } catch (error) {
      onFailure(error);
    } finally {
      running.delete(tenant);
    }
  };
  return async () => {
    let known: Iterable<TenantRuntime>;
    try {
      known = await tenants();
    } catch (error) {
      onFailure(error);
      return;
    }
    const due = [...known].filter((tenant) => !running.has(tenant));
    // One tenant's jobs never wait for another's.
    await Promise.all(due.map(runTenant));
  };
}

/**
 * Ticks every `intervalMs` of real time; returns the function that stops it, which resolves once the
 * tick in flight ended (so that the store is closed after it, never under it).
 */
export function startClockTicker(
  tenants: TenantSource,
  intervalMs = 1000,
  onFailure?: TickFailure,
): () => Promise<void> {
  const tick = createTick(tenants, onFailure);
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    // A tick never rejects (createTick sends failures to onFailure); the catch is a last guard, since an
    // unhandled rejection would end the process.
    inFlight = tick().catch(() => {});
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return inFlight;
  };
}
