/**
 * Three `ofkit simulate` replicas on one redis-server race each step two replicas can race on, 50 times
 * (replica-races.ts), and one is killed while it runs due jobs. Only loopback traffic; every process
 * stopped by its own PID.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';
import { type Replica, startReplica } from './replica-process.js';
import { defineReplicaRaces } from './replica-races.js';

const title = skipRedis ? `replica races on Redis (skipped: ${REDIS_SKIP_REASON})` : 'replica races on Redis';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

describe.skipIf(skipRedis)(title, () => {
  let redis: RunningRedis;
  let replicas: [Replica, Replica, Replica];
  // A short job lease: a killed replica's job is taken over within about a second (store time).
  const storeUrl = () => `${redis.url}?job_lease_ms=1000`;

  beforeAll(async () => {
    redis = await startRedisServer();
    replicas = (await Promise.all(
      ['A', 'B', 'C'].map((name) => startReplica(name, storeUrl(), 'races')),
    )) as [Replica, Replica, Replica];
  }, 120_000);

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.kill()));
    await redis?.stop();
  });

  defineReplicaRaces({ label: 'one Redis', replicas: () => replicas, storeUrl });
});
