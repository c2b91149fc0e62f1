/**
 * Bench child: the ofkit simulator as `ofkit simulate` builds it, on 127.0.0.1 and an OS-chosen port,
 * with the bench tenant's store seeded (one link, one account, `--transactions` transactions).
 * `--cpu-profile FILE` records a V8 CPU profile from ready to exit.
 * Run with `node --import tsx bench/servers/simulator-server.ts [--transactions N] [--cpu-profile FILE]`.
 */
import { parseArgs } from 'node:util';
import { createHttpServer, listen } from '../../simulator/src/server/http-adapter.js';
import { startCpuProfile } from '../profile/cpu-profiler.js';
import { createBenchSimulator, MAX_BODY_BYTES } from './bench-simulator.js';
import { exitCleanly, reportReady } from './child-protocol.js';
import { seedLinkWithTransactions } from './seed-data.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string', default: '150' },
      'cpu-profile': { type: 'string' },
    },
  });
  const simulator = await createBenchSimulator();
  const seeded = await seedLinkWithTransactions(simulator, Number(values.transactions));
  const server = createHttpServer({ handle: simulator.handle, maxBodyBytes: MAX_BODY_BYTES });
  const url = await listen(server, 0, '127.0.0.1');
  const profile = values['cpu-profile'];
  const writeProfile = profile === undefined ? undefined : await startCpuProfile(profile);
  exitCleanly(server, writeProfile);
  reportReady({ url, ...seeded, fallbackOperations: simulator.fallbackOperations });
}

await main();
