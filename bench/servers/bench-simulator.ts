/** The simulator every bench child serves: `createSimulator` as `ofkit simulate` calls it, seeded for replay. */
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { createSimulator, type Simulator } from '../../simulator/src/simulator.js';

export const BENCH_SEED = 'ofkit-bench';
export const MAX_BODY_BYTES = 1_048_576;

export function createBenchSimulator(): Promise<Simulator> {
  return createSimulator({
    seed: BENCH_SEED,
    environment: 'production',
    keys: DEFAULT_KEYS,
    maxBodyBytes: MAX_BODY_BYTES,
  });
}
