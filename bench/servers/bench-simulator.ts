/** The simulator every bench child serves: `startSimulator` as `ofkit simulate` calls it, seeded for replay. */
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import type { Store } from '../../simulator/src/store/store.js';

export const BENCH_SEED = 'ofkit-bench';

/**
 * On 127.0.0.1 and an OS-chosen port, with the default keys and body limit; on the memory store, or
 * on `store` (a connected RedisStore shared by replicas).
 */
export function startBenchSimulator(store?: Store): Promise<StartedSimulator> {
  return startSimulator({ seed: BENCH_SEED, environment: 'production', ...(store && { store }) });
}
