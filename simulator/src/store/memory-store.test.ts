import { runReplicaRaceContract } from '../../test-support/replica-race-contract.js';
import { runStoreContract } from '../../test-support/store-contract.js';
import { MemoryStore } from './memory-store.js';

runStoreContract('MemoryStore', (options) => new MemoryStore(options));

// Replicas of one process: several clocks and callers on the one store.
runReplicaRaceContract('MemoryStore', async () => {
  const store = new MemoryStore();
  return [store, store, store];
});
