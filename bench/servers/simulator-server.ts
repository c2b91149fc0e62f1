/**
 * Bench child: the ofkit simulator as `ofkit simulate` builds it, on 127.0.0.1 and an OS-chosen port,
 * with the bench tenant's store seeded (one link, one account, `--transactions` transactions).
 * `--cpu-profile FILE` records a V8 CPU profile from ready to exit.
 * Run with `node --import tsx bench/servers/simulator-server.ts [--transactions N] [--cpu-profile FILE]`.
 */
import { parseArgs } from 'node:util';
import { startCpuProfile } from '../profile/cpu-profiler.js';
import { startBenchSimulator } from './bench-simulator.js';
import { exitCleanly, reportReady } from './child-protocol.js';
import { seedLinkWithTransactions } from './seed-data.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string', default: '150' },
      'cpu-profile': { type: 'string' },
    },
  });
  const started = await startBenchSimulator();
  const { simulator, url } = started;
  const seeded = await seedLinkWithTransactions(simulator, Number(values.transactions));
  const profile = values['cpu-profile'];
  const writeProfile = profile === undefined ? undefined : await startCpuProfile(profile);
  exitCleanly(started, writeProfile);
  reportReady({ url, ...seeded, fallbackOperations: simulator.fallbackOperations });
}

await main();
