import { runStoreContract } from '../../test-support/store-contract.js';
import { MemoryStore } from './memory-store.js';

runStoreContract('MemoryStore', (options) => new MemoryStore(options));
