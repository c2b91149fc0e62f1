/**
 * What the Redis store's tests share on one Redis and on a Redis Cluster: stores connected under fresh
 * prefixes (two on one prefix are two replicas of one state), closed together, and the contracts every
 * shared store runs: the Store contract and the replicas' races.
 */
import { RedisStore } from '../src/store/redis-store.js';
import type { Store } from '../src/store/store.js';
import { runReplicaRaceContract } from './replica-race-contract.js';
import { runStoreContract, type StoreOptions } from './store-contract.js';

export interface RedisStoreKit {
  /** A connected store; `prefix` shared between two calls makes two replicas of one state. */
  connected(prefix?: string, options?: StoreOptions): Promise<RedisStore>;
  /** A prefix no other store of the kit has (`<name><n>:`). */
  freshPrefix(name: string): string;
  /** A store made elsewhere, closed with the kit's. */
  keep(store: RedisStore): RedisStore;
  /** Closes every store the kit connected. */
  close(): Promise<void>;
}

/** A kit on the Redis at `url()` (read when a store connects: the server starts in a `beforeAll`). */
export function redisStoreKit(url: () => string): RedisStoreKit {
  const opened: RedisStore[] = [];
  let prefixes = 0;
  const freshPrefix = (name: string) => `${name}${++prefixes}:`;
  return {
    freshPrefix,
    keep(store) {
      opened.push(store);
      return store;
    },
    async connected(prefix = freshPrefix('test'), options = {}) {
      const store = new RedisStore({ url: url(), prefix, ...options });
      opened.push(store);
      await store.connect();
      return store;
    },
    close: async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    },
  };
}

/** The contract's factory is synchronous: each method waits for the connection first. */
function connectingStore(kit: RedisStoreKit, options?: StoreOptions): Store {
  const ready = kit.connected(undefined, options);
  return new Proxy({} as Store, {
    // A shared store has no `peek` (Store.peek): only the memory store reads at once.
    get: (_, method: keyof Store) =>
      method === 'jobLeaseMs'
        ? options?.jobLeaseMs
        : method === 'peek'
          ? undefined
          : async (...args: unknown[]) => {
              const store = await ready;
              return (store[method] as (...a: unknown[]) => unknown).apply(store, args);
            },
  });
}

/** The Store contract and the races of three replicas (three connections on one prefix), by their titles. */
export function runSharedStoreContracts(titles: { store: string; races: string }, kit: RedisStoreKit): void {
  runStoreContract(titles.store, (options) => connectingStore(kit, options));
  runReplicaRaceContract(titles.races, async () => {
    const prefix = kit.freshPrefix('races');
    return [await kit.connected(prefix), await kit.connected(prefix), await kit.connected(prefix)];
  });
}
