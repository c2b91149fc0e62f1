/**
 * The Redis side of the bench (replicas sharing one Redis): a throw-away redis-server (the test harness: loopback, free
 * port, temporary directory, stopped by its PID) and two simulator children on it. The first seeds
 * the bench data into Redis through its store; the second starts with `--no-seed` and serves what the
 * first wrote. `simulator-redis` is the first child alone; `simulator-redis-x2` is both, loaded at once.
 */
import {
  type RunningRedis,
  redisServerAvailable,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';
import type { ChildServer } from '../servers/child-process.js';
import { startSimulator } from './start-simulator-child.js';

export interface RedisReplicas {
  redis: RunningRedis;
  /** Replica 1 (seeded the data), replica 2 (only reads what replica 1 wrote). */
  replicas: [ChildServer, ChildServer];
}

/** Why the Redis servers are not in this run, or undefined when they are. */
export function redisSkipReason(wanted: boolean, installed = redisServerAvailable()): string | undefined {
  if (!wanted) return 'simulator-redis and simulator-redis-x2 skipped (--no-redis)';
  if (!installed)
    return 'redis-server not found: simulator-redis and simulator-redis-x2 skipped (apt-get install redis-server)';
  return undefined;
}

let running: RunningRedis | undefined;

/** Starts redis-server, then the seeding replica, then the second one; stops what started on failure. */
export async function startRedisReplicas(transactions: number): Promise<RedisReplicas> {
  const redis = await startRedisServer();
  running = redis;
  const started: ChildServer[] = [];
  try {
    const first = await startSimulator(transactions, ['--store', redis.url], 'simulator-redis');
    started.push(first);
    const second = await startSimulator(
      transactions,
      ['--store', redis.url, '--no-seed'],
      'simulator-redis replica 2',
    );
    return { redis, replicas: [first, second] };
  } catch (error) {
    await Promise.all(started.map((child) => child.stop()));
    await stopBenchRedis();
    throw error;
  }
}

/** Stops the bench's redis-server if it runs (end of run, error, SIGINT); its replicas first. */
export async function stopBenchRedis(): Promise<void> {
  const redis = running;
  running = undefined;
  await redis?.stop();
}
