/**
 * Bench child: the ofkit simulator as `ofkit simulate` builds it, on 127.0.0.1 and an OS-chosen port,
 * with the bench tenant's store seeded (one link, one account, `--transactions` transactions).
 * `--store redis://...` serves from a Redis store instead of memory (the replicas' store); `--no-seed` is for a
 * second replica on that Redis: the first one seeded it, and this one must see that data.
 * `--cpu-profile FILE` records a V8 CPU profile from ready to exit.
 * Run with `node --import tsx bench/servers/simulator-server.ts [--transactions N] [--store URL [--no-seed]] [--cpu-profile FILE]`.
 */
import { parseArgs } from 'node:util';
import type { Store } from '../../simulator/src/store/store.js';
import { startCpuProfile } from '../profile/cpu-profiler.js';
import { startBenchSimulator } from './bench-simulator.js';
import { exitCleanly, reportReady } from './child-protocol.js';
import { seedLinkWithTransactions } from './seed-data.js';

/** A connected RedisStore; node-redis loads only here, as in `ofkit simulate`. */
async function openRedisStore(url: string): Promise<Store> {
  const { RedisStore } = await import('../../simulator/src/store/redis-store.js');
  const store = new RedisStore({ url, onError: (error) => console.error(error.message) });
  await store.connect();
  return store;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string', default: '150' },
      store: { type: 'string' },
      'no-seed': { type: 'boolean', default: false },
      'cpu-profile': { type: 'string' },
    },
  });
  const store = values.store === undefined ? undefined : await openRedisStore(values.store);
  const started = await startBenchSimulator(store);
  const { simulator, url } = started;
  const seeded = values['no-seed']
    ? { seededBy: 'another replica' }
    : await seedLinkWithTransactions(simulator, Number(values.transactions));
  const profile = values['cpu-profile'];
  const writeProfile = profile === undefined ? undefined : await startCpuProfile(profile);
  exitCleanly(started, writeProfile);
  reportReady({ url, ...seeded, fallbackOperations: simulator.unservedOperations });
}

await main();
