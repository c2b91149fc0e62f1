/**
 * node-redis's client for one Redis or for a Redis Cluster (redis-cluster-sender.ts), behind one small interface: send a command
 * routed by its first key (on a cluster, to the master of that key's slot), connect, close.
 */
import { createClient } from 'redis';
import { createClusterSender } from './redis-cluster-sender.js';
import type { RedisSender } from './redis-sender.js';
import type { RedisTarget } from './redis-url.js';

/**
 * A lost connection after start is re-made with a growing delay, up to 2 s; while it is down, commands
 * fail at once (the request gets the error array) instead of queueing until Redis returns.
 */
function socketOptions(target: RedisTarget, started: () => boolean) {
  return {
    connectTimeout: target.timeouts.connectTimeoutMs,
    // The first connection fails at once (connect() rejects with the cause).
    reconnectStrategy: (retries: number) => (started() ? Math.min(50 * 2 ** retries, 2000) : false),
  };
}

export function createSender(target: RedisTarget, started: () => boolean): RedisSender {
  if (target.topology === 'single') {
    const client = createClient({
      url: target.nodes[0],
      disableOfflineQueue: true,
      socket: socketOptions(target, started),
    });
    return {
      send: (_key, args) => client.sendCommand([...args]),
      connect: () => client.connect(),
      close: async () => {
        if (client.isOpen) await client.close();
      },
      destroy: () => client.destroy(),
      get isOpen() {
        return client.isOpen;
      },
      on: (event: string, listener: (error: Error) => void) => void client.on(event, listener),
    };
  }
  return createClusterSender(target, socketOptions(target, started));
}
