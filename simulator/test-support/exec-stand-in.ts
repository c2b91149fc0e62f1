/**
 * A simulator standing for the one `ofkit exec` runs, and the environment exec gives its command
 * (OFKIT_URL, the key, the control URL, the seed, the environment), stubbed with vitest: a test of
 * attaching (`connectSimulator`, `startSimulator({ attach: true })`) runs beside it. The caller closes
 * the simulator and unstubs the environment.
 */
import { vi } from 'vitest';
import { type StartedSimulator, startSimulator } from '../src/start-simulator.js';
import { FIXED_NOW } from './contract-checked-simulator.js';

export async function standInForExec(
  environment: 'production' | 'sandbox' = 'production',
): Promise<StartedSimulator> {
  const exec = await startSimulator({ realTime: () => FIXED_NOW, seed: 'exec-seed', environment });
  vi.stubEnv('OFKIT_URL', exec.url);
  vi.stubEnv('OFKIT_KEY', exec.keys[0]!.secretId);
  vi.stubEnv('OFKIT_SECRET', exec.keys[0]!.secretPassword);
  vi.stubEnv('OFKIT_CONTROL_URL', exec.control.url);
  vi.stubEnv('OFKIT_SEED', exec.seed);
  vi.stubEnv('OFKIT_ENVIRONMENT', environment);
  return exec;
}
