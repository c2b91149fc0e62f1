/**
 * Vitest global set-up of the redis lane: one Redis Cluster for every test file of the lane that needs
 * one (`attachRedisCluster(inject('redisCluster'))`), instead of a cluster per file. The lane runs its
 * files one at a time, so the one test that fails a master over has the cluster to itself; the files
 * after it use the cluster as the failover left it (whole, one master without a replica). Nothing is
 * started where the Redis tests are skipped.
 */
import type { TestProject } from 'vitest/node';
import { type ClusterAddress, startRedisCluster } from './redis-cluster.js';
import { skipRedis } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The lane's Redis Cluster; absent where the Redis tests are skipped. */
    redisCluster: ClusterAddress | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (skipRedis) {
    project.provide('redisCluster', null);
    return async () => {};
  }
  const cluster = await startRedisCluster();
  project.provide('redisCluster', { url: cluster.url, nodes: cluster.nodes });
  return () => cluster.stop();
}
