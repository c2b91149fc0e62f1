/**
 * node-redis's cluster client behind the store's RedisSender. Its seed nodes are first asked for a PING
 * each, within the connect time-out, and only those that answer are handed to node-redis: its discovery
 * reads the topology through a connection of its own that nothing can close, so a seed node that
 * accepts connections and never answers would hold the start (and the process) for ever.
 */
import { ClientOfflineError, createClient, createCluster, SocketClosedUnexpectedlyError } from 'redis';
import type { RedisSender } from './redis-sender.js';
import type { RedisTarget } from './redis-url.js';

/** A seed node accepted the connection and did not answer within the connect time-out. */
export class SilentNodeError extends Error {
  override name = 'SilentNodeError';
}

type SocketOptions = { connectTimeout: number; reconnectStrategy: (retries: number) => number | false };

/** PING `url` once; rejects with the cause, or a SilentNodeError past `ms`. Closes what it opened. */
async function ping(url: string, ms: number): Promise<void> {
  const client = createClient({ url, socket: { connectTimeout: ms, reconnectStrategy: false } });
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SilentNodeError(url)), ms);
  });
  try {
    await Promise.race([client.connect().then(() => client.ping()), silent]);
  } finally {
    clearTimeout(timer);
    if (client.isOpen) client.destroy();
  }
}

/** How long the other seed nodes may take once one answered. */
const SEED_GRACE_MS = 200;

/**
 * The seed nodes that answer: from the first answer, the others get a moment more (one that answers is
 * kept, for discovery again after a failover; a silent one is not waited for). None: the first node's
 * failure (its cause, or SilentNodeError).
 */
async function answeringNodes(target: RedisTarget): Promise<string[]> {
  const ms = target.timeouts.connectTimeoutMs;
  const answered: string[] = [];
  const pings = target.nodes.map((url) => ping(url, ms).then(() => void answered.push(url)));
  try {
    await Promise.any(pings);
  } catch (error) {
    throw (error as AggregateError).errors[0];
  }
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(pings),
    new Promise((done) => {
      grace = setTimeout(done, Math.min(SEED_GRACE_MS, ms));
    }),
  ]);
  clearTimeout(grace);
  return [...answered];
}

/**
 * What the store uses of node-redis's cluster client. `redis`'s createCluster types its client with every
 * command of the modules it bundles (JSON, search, time series, bloom); inferring that type for the call
 * and relating it cost the type checker about 17 s, half of `tsc` over the whole project, for a client
 * that sends raw commands only.
 */
interface Cluster {
  readonly _slots: unknown;
  readonly isOpen: boolean;
  sendCommand(key: string | undefined, isReadonly: boolean, args: string[]): Promise<unknown>;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  on(event: string, listener: (error: Error) => void): unknown;
}

interface ClusterOptions {
  rootNodes: { url: string }[];
  defaults: {
    disableOfflineQueue: boolean;
    socket: SocketOptions | (SocketOptions & { tls: true });
    username?: string;
    password?: string;
  };
}

const newCluster: (options: ClusterOptions) => Cluster = createCluster;

function send(cluster: Cluster, seed: string) {
  // node-redis re-reads the topology on MOVED only; a master that failed answers nothing, so a lost
  // node makes the store read it again (from a seed node), once for every caller.
  const slots = cluster._slots as unknown as { rediscover(from: { options: unknown }): Promise<void> };
  const rediscover = () => slots.rediscover({ options: { url: seed } }).catch(() => undefined);
  const attempt = async (
    key: string | undefined,
    args: readonly string[],
    retried: boolean,
  ): Promise<unknown> => {
    try {
      return await cluster.sendCommand(key, false, [...args]);
    } catch (error) {
      if (!(error instanceof ClientOfflineError || error instanceof SocketClosedUnexpectedlyError))
        throw error;
      await rediscover();
      // Offline: the command was never sent, so sending it to the slot's new master is safe (once).
      if (error instanceof ClientOfflineError && !retried) return attempt(key, args, true);
      throw error;
    }
  };
  return (key: string | undefined, args: readonly string[]) => attempt(key, args, false);
}

/** The cluster is created when it connects (from the seed nodes that answered). */
export function createClusterSender(target: RedisTarget, socket: SocketOptions): RedisSender {
  let cluster: Cluster | undefined;
  let sendTo: ((key: string | undefined, args: readonly string[]) => Promise<unknown>) | undefined;
  const listeners: [string, (error: Error) => void][] = [];
  return {
    send: (key, args) => {
      if (sendTo === undefined) return Promise.reject(new ClientOfflineError());
      return sendTo(key, args);
    },
    connect: async () => {
      const seeds = await answeringNodes(target);
      // The nodes it discovers get the seed nodes' TLS and credentials (their URLs carry them only for the seeds).
      const { tls, username, password } = target;
      cluster = newCluster({
        rootNodes: seeds.map((url) => ({ url })),
        defaults: {
          disableOfflineQueue: true,
          socket: tls ? { ...socket, tls: true } : socket,
          ...(username !== undefined && { username }),
          ...(password !== undefined && { password }),
        },
      });
      for (const [event, listener] of listeners) cluster.on(event, listener);
      await cluster.connect();
      sendTo = send(cluster, seeds[0] ?? '');
    },
    close: async () => {
      if (cluster?.isOpen) await cluster.close();
    },
    destroy: () => cluster?.destroy(),
    get isOpen() {
      return cluster?.isOpen ?? false;
    },
    on: (event: string, listener: (error: Error) => void) => {
      listeners.push([event, listener]);
      cluster?.on(event, listener);
    },
  };
}
