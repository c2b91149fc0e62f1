/**
 * The Redis store on a Redis Cluster (three masters, a replica each, on free loopback ports, the lane's):
 * the whole Store contract and the replicas' races, every tenant's keys in one slot and no script across
 * two; then a master killed: its replica takes over and the store goes on with nothing lost.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { attachRedisCluster, type RunningCluster } from '../../test-support/redis-cluster.js';
import { REDIS_SKIP_REASON, skipRedis } from '../../test-support/redis-server.js';
import { redisStoreKit, runSharedStoreContracts } from '../../test-support/redis-store-kit.js';
import { startSilentServer } from '../../test-support/silent-server.js';
import { RedisStore } from './redis-store.js';

const title = skipRedis
  ? `RedisStore on a Redis Cluster (skipped: ${REDIS_SKIP_REASON})`
  : 'RedisStore on a Redis Cluster';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

describe.skipIf(skipRedis)(title, () => {
  let cluster: RunningCluster;
  const kit = redisStoreKit(() => cluster.url);
  const { connected, freshPrefix } = kit;

  // The redis lane's cluster (redis-lane.ts): its files run one at a time, so the failover below has it
  // to itself.
  beforeAll(() => {
    cluster = attachRedisCluster(inject('redisCluster')!);
  });

  afterAll(() => kit.close());

  runSharedStoreContracts({ store: 'RedisStore on a Redis Cluster', races: 'Redis Cluster' }, kit);

  it('starts from the seed nodes that answer: one that accepts and never answers is passed over', async () => {
    const silent = await startSilentServer();
    try {
      const seeds = cluster.url.slice('redis+cluster://'.length);
      const url = `redis+cluster://127.0.0.1:${silent.port},${seeds}?connect_timeout_ms=1000`;
      const store = kit.keep(new RedisStore({ url, prefix: freshPrefix('seeds') }));
      await store.connect();
      await store.put('t', 'links', { id: 'L', link: null });
      expect(await store.get('t', 'links', 'L')).toEqual({ id: 'L', link: null });
      // Only silent seeds: the connect time-out's one line.
      const lone = new RedisStore({ url: `redis+cluster://127.0.0.1:${silent.port}?connect_timeout_ms=300` });
      await expect(lone.connect()).rejects.toThrow(
        `Redis at redis+cluster://127.0.0.1:${silent.port}?connect_timeout_ms=300 did not answer within 300 ms (connect_timeout_ms): is a Redis server listening there?`,
      );
    } finally {
      await silent.close();
    }
  });

  it('a master killed: its replica takes over, and both replicas of the simulator go on with nothing lost', async () => {
    const prefix = freshPrefix('failover');
    const [a, b] = [await connected(prefix), await connected(prefix)];
    const tenants = Array.from({ length: 12 }, (_, n) => `tenant-${n}`);
    for (const tenant of tenants) {
      await a.put(tenant, 'links', { id: 'L', link: null, tenant });
      await a.addJob(tenant, { id: 'j', at: 1, order: 1, kind: 'k', args: {} });
    }
    const held = await a.leaseDueJob('tenant-3', 10, 'A');
    await cluster.replicated();
    const { killed, promoted } = await cluster.failMasterOf(`${prefix}{tenant-3}:gen`);
    expect(promoted).not.toBe(killed);
    // Every tenant's record is there, through either replica; the lease survived with its job.
    for (const tenant of tenants) expect((await b.get(tenant, 'links', 'L'))?.tenant).toBe(tenant);
    expect(await b.leaseDueJob('tenant-3', 10, 'B')).toBeUndefined();
    expect(await a.finishJob('tenant-3', held!.lease)).toBe(true);
    // The steps replicas race on still decide once on the promoted master.
    const removals = await Promise.all(
      [a, b, a].map((store) => store.removeRecord('tenant-3', { collection: 'links', id: 'L' })),
    );
    expect(removals.map((removal) => removal.outcome).sort()).toEqual(['missing', 'missing', 'removed']);
    expect((await b.tenants()).filter((tenant) => tenant.startsWith('tenant-')).sort()).toEqual(
      tenants.sort(),
    );
  }, 60_000);
});
