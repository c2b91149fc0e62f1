/** The simulator every bench child serves: `startSimulator` as `ofkit simulate` calls it, seeded for replay. */
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';

export const BENCH_SEED = 'ofkit-bench';

/** On 127.0.0.1 and an OS-chosen port, with the default keys and body limit. */
export function startBenchSimulator(): Promise<StartedSimulator> {
  return startSimulator({ seed: BENCH_SEED, environment: 'production' });
}
