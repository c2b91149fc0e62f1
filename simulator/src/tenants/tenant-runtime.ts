/**
 * What one tenant (one API key) owns besides its stored records: its clock, its id and data streams,
 * its scenario switches and injected faults. Each tenant's are independent (DESIGN.md).
 */
import { VirtualClock } from '../clock/virtual-clock.js';
import { createIds, createRandom, type Ids, type Random } from '../ids/seeded-ids.js';
import type { Environment } from '../pipeline/authenticate.js';
import type { Store } from '../store/store.js';

export interface Fault {
  id: string;
  operation_id: string;
  status: 408 | 500;
  remaining: number;
}

export interface TenantRuntime {
  id: string;
  environment: Environment;
  clock: VirtualClock;
  ids: Ids;
  random: Random;
  store: Store;
  faults: Fault[];
}

export interface TenantRegistryOptions {
  seed: string;
  store: Store;
  environment: Environment;
  realTime: () => number;
}

/** Creates each tenant's runtime on first use, its streams derived from the seed and the tenant id. */
export function createTenantRegistry(options: TenantRegistryOptions): (tenantId: string) => TenantRuntime {
  const runtimes = new Map<string, TenantRuntime>();
  return (tenantId) => {
    const existing = runtimes.get(tenantId);
    if (existing) return existing;
    const random = createRandom(`${options.seed}/${tenantId}`);
    const runtime: TenantRuntime = {
      id: tenantId,
      environment: options.environment,
      clock: new VirtualClock(options.realTime),
      ids: createIds(createRandom(`${options.seed}/${tenantId}/ids`)),
      random,
      store: options.store,
      faults: [],
    };
    runtimes.set(tenantId, runtime);
    return runtime;
  };
}
