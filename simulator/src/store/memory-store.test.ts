import { MemoryStore } from './memory-store.js';
import { runStoreContract } from './store-contract.js';

runStoreContract('MemoryStore', () => new MemoryStore());
