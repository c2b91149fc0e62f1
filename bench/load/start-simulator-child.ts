/** The simulator as a bench child (bench/servers/simulator-server.ts), on memory or on a Redis store. */
import { type ChildServer, startChild, tsxArgs } from '../servers/child-process.js';

/** Generous: on a shared 2-core machine tsx compiles the simulator while other agents run. */
export const START_TIMEOUT_MS = 180_000;

export function startSimulator(
  transactions: number,
  extraArgs: readonly string[] = [],
  name = 'simulator',
): Promise<ChildServer> {
  return startChild({
    name,
    command: process.execPath,
    args: [
      ...tsxArgs('bench/servers/simulator-server.ts'),
      '--transactions',
      String(transactions),
      ...extraArgs,
    ],
    timeoutMs: START_TIMEOUT_MS,
  });
}
