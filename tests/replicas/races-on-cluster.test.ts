/**
 * The same races as on one Redis (replica-races.ts), with three `ofkit simulate` replicas on a Redis
 * Cluster of three masters, each with a replica (the redis lane's, on free loopback ports): every
 * tenant's keys in one slot, no script across two. Every process stopped by its own PID.
 */
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { attachRedisCluster, type RunningCluster } from '../../simulator/test-support/redis-cluster.js';
import { REDIS_SKIP_REASON, skipRedis } from '../../simulator/test-support/redis-server.js';
import { type Replica, startReplica } from './replica-process.js';
import { defineReplicaRaces } from './replica-races.js';

const title = skipRedis
  ? `replica races on a Redis Cluster (skipped: ${REDIS_SKIP_REASON})`
  : 'replica races on a Redis Cluster';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

describe.skipIf(skipRedis)(title, () => {
  let cluster: RunningCluster;
  let replicas: [Replica, Replica, Replica];
  // A short job lease: a killed replica's job is taken over within about a second (store time).
  const storeUrl = () => `${cluster.url}?job_lease_ms=1000`;

  beforeAll(async () => {
    cluster = attachRedisCluster(inject('redisCluster')!);
    replicas = (await Promise.all(
      ['A', 'B', 'C'].map((name) => startReplica(name, storeUrl(), 'races')),
    )) as [Replica, Replica, Replica];
  }, 120_000);

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.kill()));
  });

  defineReplicaRaces({ label: 'Redis Cluster', replicas: () => replicas, storeUrl });
});
