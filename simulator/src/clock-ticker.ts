/**
 * A real-time ticker for `ofkit simulate`: a clock that follows real time runs its due jobs (webhook
 * retries, the daily refresh, async deletions) without waiting for the tenant's next request.
 */
import type { TenantRuntime } from './core/tenant.js';

/**
 * The tenants whose jobs the ticker runs: with replicas on one store, every tenant with state there
 * (a job another replica scheduled is claimed by whichever ticks first).
 */
export type TenantSource = () => Iterable<TenantRuntime> | Promise<Iterable<TenantRuntime>>;

/** Runs every known tenant's due jobs, skipping a tenant whose previous run has not finished. */
export function createTick(tenants: TenantSource): () => Promise<void> {
  const running = new Set<TenantRuntime>();
  const runTenant = async (tenant: TenantRuntime) => {
    running.add(tenant);
    try {
      await tenant.clock.runDue();
    } finally {
      running.delete(tenant);
    }
  };
  return async () => {
    const due = [...(await tenants())].filter((tenant) => !running.has(tenant));
    // One tenant's jobs never wait for another's.
    await Promise.all(due.map(runTenant));
  };
}

/**
 * Ticks every `intervalMs` of real time; returns the function that stops it, which resolves once the
 * tick in flight ended (so that the store is closed after it, never under it).
 */
export function startClockTicker(tenants: TenantSource, intervalMs = 1000): () => Promise<void> {
  const tick = createTick(tenants);
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    // A failed run leaves its jobs due: the next tick or the tenant's next request runs them again,
    // and that request answers the error; an unhandled rejection would end the process instead.
    inFlight = tick().catch(() => {});
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return inFlight;
  };
}
