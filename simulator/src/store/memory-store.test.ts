import { runStoreContract } from '../testing/store-contract.js';
import { MemoryStore } from './memory-store.js';

runStoreContract('MemoryStore', () => new MemoryStore());
